// Tells interested areas what happened to a merge request, in two moments:
// - in the write's transaction (`onMergeRequestWrite`): what the listener writes, a system note, commits or
//   rolls back with the change;
// - after the write committed (`onMergeRequestEvent`): the project hooks queue their deliveries, which must
//   see the committed merge request.
import type { ServerContext } from '../../core/context.js';
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
