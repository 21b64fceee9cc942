// Merge requests and to-dos. The to-dos a merge request write makes (issuables/todos.ts: GitLab's
// TodoService#new_merge_request, #reassigned_assignable, #update_merge_request, #close_merge_request and
// #merge_merge_request), in the write's transaction. Merge requests are also registered as to-do targets:
// the to-do list shows a merge request as the merge request list shows it (GitLab's Todo entity embeds it).
import type { ProjectRow } from '../../core/access/access.js';
import type { Db } from '../../core/store/database.js';
import { makeIssuableTodos } from '../issuables/todos.js';
import { type PresentedTarget, registerTodoTarget } from '../todos/index.js';
import { presentMergeRequestsById } from './present.js';
import type { MergeRequestRow } from './store.js';

export interface MergeRequestTodoWrite {
  project: ProjectRow;
  mergeRequest: MergeRequestRow;
  /** The user who wrote it. */
  authorId: number;
  /** The assignees before (none for a new merge request) and after the write. */
  assigneesBefore: readonly number[];
  assigneesAfter: readonly number[];
  /** The description before the write (null for a new merge request). */
  descriptionBefore: string | null;
  /** Whether this write closed or merged it. */
  resolved: boolean;
}

export async function makeMergeRequestTodos(trx: Db, write: MergeRequestTodoWrite): Promise<void> {
  const { mergeRequest, ...rest } = write;
  await makeIssuableTodos(trx, {
    ...rest,
    type: 'MergeRequest',
    issuable: mergeRequest,
    confidential: false,
  });
}

registerTodoTarget('MergeRequest', async (context, ids, origin) => {
  const presented = new Map<number, PresentedTarget>();
  for (const [id, mergeRequest] of await presentMergeRequestsById(context.db, ids, origin))
    presented.set(id, { target: mergeRequest, url: mergeRequest.web_url });
  return presented;
});
