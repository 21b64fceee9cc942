// The one write of a merge request's state that the server makes outside a request's own update: a merge
// (merge.ts), a change a push brings (refresh.ts: merged by a push, closed with its deleted source branch, a
// new head) and a lock left behind released as merged (locks.ts). In one transaction: the row by
// compare-and-swap on its state, the to-dos of a close or merge (GitLab's TodoService#close_merge_request and
// #merge_merge_request: the merge request's pending to-dos done) and the write listeners (system notes);
// after the commit, the event listeners (hooks, integrations). Not in writes.ts, which presents what it
// writes through service.ts, which releases locks through locks.ts: that would be an import cycle.
import type { ProjectRow } from '../../core/access/access.js';
import type { ServerContext } from '../../core/context.js';
import type { RefChange } from '../../core/git/repositoryEvents.js';
import {
  type AutoMergeChange,
  type MergeRequestAction,
  mergeRequestEvent,
  mergeRequestWritten,
  type PushedCommits,
} from './events.js';
import { type MergeRequestChanges, type MergeRequestRow, updateMergeRequestIn } from './store.js';
import { makeMergeRequestTodos } from './todo.js';

export interface StateWrite {
  action: MergeRequestAction;
  /** Who made the change. */
  userId: number;
  /** What the write listeners note beside the state: the automatic merge, the commits a push brought. */
  autoMerge?: AutoMergeChange;
  pushed?: PushedCommits;
  /** The push that made the change (a refresh), for the event listeners (MergeRequestChange.push). */
  push?: RefChange;
  /** Work after the commit and before the event listeners hear of it (a merge's push and branch removal). */
  afterCommit?: (written: MergeRequestRow) => Promise<void>;
}

/**
 * Writes `changes` to the merge request if it is still in `expectedState`, with its to-dos and listeners.
 * Undefined, and nothing written, when another write changed its state first.
 */
export async function writeMergeRequestState(
  context: ServerContext,
  project: ProjectRow,
  row: MergeRequestRow,
  expectedState: string,
  changes: MergeRequestChanges,
  write: StateWrite,
): Promise<MergeRequestRow | undefined> {
  const { action, userId } = write;
  const written = await context.db.transaction().execute(async (trx) => {
    const mergeRequest = await updateMergeRequestIn(trx, row.id, expectedState, changes);
    if (!mergeRequest) return undefined;
    if (action !== 'update')
      await makeMergeRequestTodos(trx, {
        project,
        mergeRequest,
        authorId: userId,
        assigneesBefore: [],
        assigneesAfter: [],
        descriptionBefore: mergeRequest.description,
        resolved: true,
      });
    await mergeRequestWritten(context, trx, {
      action,
      mergeRequest,
      before: row,
      userId,
      at: mergeRequest.updated_at,
      autoMerge: write.autoMerge,
      pushed: write.pushed,
    });
    return mergeRequest;
  });
  if (!written) return undefined;
  await write.afterCommit?.(written);
  await mergeRequestEvent(context, {
    action,
    mergeRequest: written,
    before: row,
    userId,
    at: written.updated_at,
    push: write.push,
  });
  return written;
}
