// Custom attributes: key/value pairs an administrator sets on users, groups and projects (GitLab's
// `custom_attributes`), in one table for every kind of subject. Lists read them for their page's subjects.
import type { Schemas } from '../http/types.js';
import type { Db } from './database.js';

export type CustomAttributeSubject = 'Project' | 'Group' | 'User';

/** The custom attributes of the subjects `ids` of one kind, by subject, in the order they were set (one query, as GitLab's association reads them). */
export async function customAttributesOf(
  db: Db,
  subjectType: CustomAttributeSubject,
  ids: readonly number[],
): Promise<Map<number, Schemas['CustomAttribute'][]>> {
  const attributes = new Map<number, Schemas['CustomAttribute'][]>();
  if (ids.length === 0) return attributes;
  const rows = await db
    .selectFrom('custom_attributes')
    .select(['subject_id', 'key', 'value'])
    .where('subject_type', '=', subjectType)
    .where('subject_id', 'in', ids)
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = attributes.get(row.subject_id) ?? [];
    list.push({ key: row.key, value: row.value });
    attributes.set(row.subject_id, list);
  }
  return attributes;
}

/** Sets a subject's custom attributes, in the order given (fixtures). */
export async function insertCustomAttributes(
  db: Db,
  subjectType: CustomAttributeSubject,
  subjectId: number,
  attributes: Record<string, string>,
  now: string,
): Promise<void> {
  for (const [key, value] of Object.entries(attributes))
    await db
      .insertInto('custom_attributes')
      .values({
        subject_type: subjectType,
        subject_id: subjectId,
        key,
        value,
        created_at: now,
        updated_at: now,
      })
      .execute();
}
