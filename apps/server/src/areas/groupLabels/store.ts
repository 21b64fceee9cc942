// The group labels area's queries: labels of a group chain, the caller's subscriptions, and the counts of
// the open and closed issues and open merge requests that carry a label's title (issuable_labels holds
// label names, which GitLab matches to labels by title).
import type { Selectable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { LabelsTable } from '../../core/store/tables.js';

export type LabelRow = Selectable<LabelsTable>;

/** One page of the labels of these groups, by title (GitLab's LabelsFinder order), then by ID. */
export function listLabels(db: Db, groupIds: readonly number[], window: PageWindow): Promise<Page<LabelRow>> {
  const query = db.selectFrom('labels').where('group_id', 'in', [...groupIds]);
  return readPageOf(db, query, (q) => q.selectAll().orderBy('title').orderBy('id'), window);
}

/** The label with this ID among the groups' labels, else the one with this title (GitLab's find_label). */
export async function findLabel(
  db: Db,
  groupIds: readonly number[],
  idOrTitle: string,
): Promise<LabelRow | undefined> {
  const labels = db
    .selectFrom('labels')
    .selectAll()
    .where('group_id', 'in', [...groupIds]);
  if (/^\d+$/.test(idOrTitle) && Number.isSafeInteger(Number(idOrTitle))) {
    const byId = await labels.where('id', '=', Number(idOrTitle)).executeTakeFirst();
    if (byId) return byId;
  }
  // The nearest group's label first when an ancestor has one of the same title.
  const byTitle = await labels.where('title', '=', idOrTitle).execute();
  return byTitle.sort((a, b) => groupIds.indexOf(a.group_id ?? 0) - groupIds.indexOf(b.group_id ?? 0))[0];
}

export interface NewLabel {
  groupId: number;
  title: string;
  color: string;
  description: string | null;
}

export async function insertLabel(db: Db, label: NewLabel): Promise<LabelRow> {
  const now = nowIso();
  return db
    .insertInto('labels')
    .values({
      group_id: label.groupId,
      project_id: null,
      title: label.title,
      color: label.color,
      description: label.description,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface LabelChanges {
  title?: string;
  color?: string;
  description?: string | null;
}

export async function updateLabel(db: Db, labelId: number, changes: LabelChanges): Promise<LabelRow> {
  return db
    .updateTable('labels')
    .set({ ...changes, updated_at: nowIso() })
    .where('id', '=', labelId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteLabel(db: Db, labelId: number): Promise<void> {
  await db.deleteFrom('labels').where('id', '=', labelId).execute();
}

/** The IDs of these labels the user is subscribed to. */
export async function subscribedLabelIds(
  db: Db,
  userId: number,
  labelIds: readonly number[],
): Promise<Set<number>> {
  if (labelIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('label_subscriptions')
    .select('label_id')
    .where('user_id', '=', userId)
    .where('label_id', 'in', [...labelIds])
    .execute();
  return new Set(rows.map((row) => row.label_id));
}

export async function subscribe(db: Db, userId: number, labelId: number): Promise<void> {
  await db
    .insertInto('label_subscriptions')
    .values({ label_id: labelId, user_id: userId, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['label_id', 'user_id']).doNothing())
    .execute();
}

export async function unsubscribe(db: Db, userId: number, labelId: number): Promise<void> {
  await db
    .deleteFrom('label_subscriptions')
    .where('user_id', '=', userId)
    .where('label_id', '=', labelId)
    .execute();
}

/** Which issues and merge requests a count sees: those of the projects under a group, as a caller sees them. */
export interface CountScope {
  /** The group whose projects (and its subgroups' projects) are counted. */
  groupId: number;
  /** Only public and internal projects (a caller who is no member of the group). */
  visibleProjectsOnly: boolean;
  /** Also confidential issues (Reporters and above). */
  confidentialIssues: boolean;
}

export interface LabelCounts {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
}

/** The counts of each title, in two grouped queries for the whole page. */
export async function countsByTitle(
  db: Db,
  titles: readonly string[],
  scope: CountScope,
): Promise<Map<string, LabelCounts>> {
  const counts = new Map<string, LabelCounts>(
    titles.map((title) => [
      title,
      { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 },
    ]),
  );
  if (titles.length === 0) return counts;
  const projects = (() => {
    let query = db
      .selectFrom('projects')
      .select('projects.id')
      .where(
        'namespace_id',
        'in',
        db.selectFrom('group_ancestors').select('group_id').where('ancestor_id', '=', scope.groupId),
      );
    if (scope.visibleProjectsOnly) query = query.where('visibility', '!=', 'private');
    return query;
  })();

  let issues = db
    .selectFrom('issuable_labels as l')
    .innerJoin('issues as i', 'i.id', 'l.issuable_id')
    .select(['l.name', 'i.state', (eb) => eb.fn.countAll().as('total')])
    .where('l.issuable_type', '=', 'Issue')
    .where('l.name', 'in', [...titles])
    .where('i.project_id', 'in', projects);
  if (!scope.confidentialIssues) issues = issues.where('i.confidential', '=', 0);
  for (const row of await issues.groupBy(['l.name', 'i.state']).execute()) {
    const entry = counts.get(row.name);
    if (!entry) continue;
    if (row.state === 'opened') entry.open_issues_count += Number(row.total);
    else if (row.state === 'closed') entry.closed_issues_count += Number(row.total);
  }

  const mergeRequests = await db
    .selectFrom('issuable_labels as l')
    .innerJoin('merge_requests as m', 'm.id', 'l.issuable_id')
    .select(['l.name', (eb) => eb.fn.countAll().as('total')])
    .where('l.issuable_type', '=', 'MergeRequest')
    .where('l.name', 'in', [...titles])
    .where('m.state', '=', 'opened')
    .where('m.project_id', 'in', projects)
    .groupBy('l.name')
    .execute();
  for (const row of mergeRequests) {
    const entry = counts.get(row.name);
    if (entry) entry.open_merge_requests_count += Number(row.total);
  }
  return counts;
}

/** Adds a label of a group (fixtures). */
export async function insertGroupLabel(
  db: Db,
  label: { groupId: number; title: string; color: string; description: string | null; now: string },
): Promise<void> {
  await db
    .insertInto('labels')
    .values({
      group_id: label.groupId,
      project_id: null,
      title: label.title,
      color: label.color,
      description: label.description,
      created_at: label.now,
      updated_at: label.now,
    })
    .execute();
}

/** Whether one of these groups has a label of this title (other than `exceptId`). */
export async function titleTaken(
  db: Db,
  groupIds: readonly number[],
  title: string,
  exceptId?: number,
): Promise<boolean> {
  let query = db
    .selectFrom('labels')
    .select('id')
    .where('group_id', 'in', [...groupIds])
    .where('title', '=', title);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}
