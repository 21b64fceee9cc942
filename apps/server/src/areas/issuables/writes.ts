// What issue and merge request writes share (GitLab's IssuableBaseService): the assignees a request gives and
// which of them may be assigned, and the labels after `labels`, `add_labels` and `remove_labels`.

import { canSee, type ProjectRow, projectAccessLevel } from '../../core/access/access.js';
import { type Caller, toCallerUser } from '../../core/access/caller.js';
import type { Db } from '../../core/store/database.js';
import { labelNames } from './parameters.js';
import { activeUsers, type IssuableType, labelsOf } from './store.js';

/** The assignee IDs a request gives (`assignee_ids` wins over the deprecated `assignee_id`), if any. */
export function requestedAssignees(body: {
  assignee_ids?: number[] | null;
  assignee_id?: number | null;
}): number[] | undefined {
  if (body.assignee_ids !== undefined && body.assignee_ids !== null) return body.assignee_ids;
  if (body.assignee_id !== undefined && body.assignee_id !== null) return [body.assignee_id];
  return undefined;
}

/**
 * The users an issuable may be assigned to, from the IDs given: existing active users who can see the
 * project (others are dropped, as GitLab drops them), without repeats; `0` assigns no one. `multiple`
 * false (the free tier) keeps the first only.
 */
export async function assignableUsers(
  db: Db,
  project: ProjectRow,
  ids: readonly number[],
  multiple: boolean,
): Promise<number[]> {
  const wanted = [...new Set(ids.filter((id) => id > 0 && Number.isSafeInteger(id)))];
  const assignable: number[] = [];
  for (const row of await activeUsers(db, wanted)) {
    const user: Caller = { user: toCallerUser(row), scopes: [] };
    const level = await projectAccessLevel(db, user, project);
    if (canSee(user, project.visibility, level)) assignable.push(row.id);
  }
  return multiple ? assignable : assignable.slice(0, 1);
}

type LabelsParameter = string | string[] | null | undefined;

/**
 * The labels after an update, undefined when it names none: `labels` replaces them, then `add_labels` and
 * `remove_labels` apply to the result.
 */
export async function updatedLabels(
  db: Db,
  type: IssuableType,
  id: number,
  body: { labels?: LabelsParameter; add_labels?: LabelsParameter; remove_labels?: LabelsParameter },
): Promise<string[] | undefined> {
  const given = (value: LabelsParameter): value is string | string[] => value !== undefined && value !== null;
  if (!given(body.labels) && !given(body.add_labels) && !given(body.remove_labels)) return undefined;
  let labels = given(body.labels)
    ? labelNames('labels', body.labels)
    : ((await labelsOf(db, type, [id])).get(id) ?? []);
  if (given(body.add_labels))
    for (const name of labelNames('add_labels', body.add_labels))
      if (!labels.includes(name)) labels.push(name);
  if (given(body.remove_labels)) {
    const removed = labelNames('remove_labels', body.remove_labels);
    labels = labels.filter((name) => !removed.includes(name));
  }
  return labels;
}
