// Tells interested areas what happened to a merge request, in two moments:
// - in the write's transaction (`onMergeRequestWrite`): what the listener writes, a system note, commits or
//   rolls back with the change;
// - after the write committed (`onMergeRequestEvent`): the project hooks queue their deliveries, which must
//   see the committed merge request.
import type { ServerContext } from '../../core/context.js';
import type { RefChange } from '../../core/git/repositoryEvents.js';
import type { Db } from '../../core/store/database.js';
import type { MergeRequestRow } from './store.js';

/** GitLab's merge request hook actions (Gitlab::DataBuilder::MergeRequest / MergeRequests::BaseService). */
export type MergeRequestAction = 'open' | 'update' | 'close' | 'reopen' | 'merge';

export interface MergeRequestChange {
  action: MergeRequestAction;
  /** The merge request as written. */
  mergeRequest: MergeRequestRow;
  /** The merge request before the write (null for a new one). */
  before: MergeRequestRow | null;
  /** Who made the change. */
  userId: number;
  /** When (ISO): the merge request's new `updated_at`. */
  at: string;
  /** What happened to its automatic merge, if anything (GitLab's AutoMerge services and their notes). */
  autoMerge?: AutoMergeChange;
  /** The commits a push brought to its source branch (GitLab's RefreshService#notify_about_push). */
  pushed?: PushedCommits;
  /**
   * The ref change of the push that made this change (a refresh): its consumers share what they read of it
   * (its project, its user, its commits) with the push's own event.
   */
  push?: RefChange;
}

/**
 * An automatic merge set for when the pipeline of `sha` succeeds, aborted by the server (`reason` says why,
 * in GitLab's words: `source branch was updated`, `merge request was closed`), or canceled by a user.
 */
export type AutoMergeChange =
  | { action: 'enabled'; sha: string }
  | { action: 'aborted'; reason: string }
  | { action: 'canceled' };

/** What closing a merge request does to its automatic merge (GitLab's CloseService#abort_auto_merge). */
export const CLOSED_ABORTS_AUTO_MERGE: AutoMergeChange = {
  action: 'aborted',
  reason: 'merge request was closed',
};

/** A commit as the push's note lists it. */
export interface PushedCommit {
  id: string;
  title: string;
}

/**
 * The commits a push brought to a merge request's source branch, oldest first: `added` are new to the merge
 * request, `existing` were on the target branch already (a merge of the target into the source brings them).
 * `total` counts them all, more than the lists hold when the push was very long.
 */
export interface PushedCommits {
  added: readonly PushedCommit[];
  existing: readonly PushedCommit[];
  total: number;
  /** The source branch's head before the push. */
  before: string;
  /** The merge request's pages: `<origin-relative full path>/-/merge_requests/<iid>`. */
  path: string;
}

export type MergeRequestWriteListener = (trx: Db, change: MergeRequestChange) => Promise<void>;
export type MergeRequestEventListener = (change: MergeRequestChange) => Promise<void>;

/** Per running server (tests run several in one process). */
const writeListeners = new WeakMap<ServerContext, MergeRequestWriteListener[]>();
const eventListeners = new WeakMap<ServerContext, MergeRequestEventListener[]>();

export function onMergeRequestWrite(context: ServerContext, listener: MergeRequestWriteListener): void {
  writeListeners.set(context, [...(writeListeners.get(context) ?? []), listener]);
}

export function onMergeRequestEvent(context: ServerContext, listener: MergeRequestEventListener): void {
  eventListeners.set(context, [...(eventListeners.get(context) ?? []), listener]);
}

/** Runs the in-transaction listeners; `trx` is the write's transaction. */
export async function mergeRequestWritten(
  context: ServerContext,
  trx: Db,
  change: MergeRequestChange,
): Promise<void> {
  for (const listener of writeListeners.get(context) ?? []) await listener(trx, change);
}

/** Runs the after-commit listeners. */
export async function mergeRequestEvent(context: ServerContext, change: MergeRequestChange): Promise<void> {
  for (const listener of eventListeners.get(context) ?? []) await listener(change);
}
