// Tells interested areas (notes) that an issue was closed or reopened. Listeners run inside the update's
// transaction, with it: what they write (a system note) commits or rolls back with the state change.
import type { ServerContext } from '../../core/context.js';
import type { Db } from '../../core/store/database.js';

export interface IssueStateChange {
  issueId: number;
  projectId: number;
  /** Who closed or reopened it. */
  userId: number;
  /** The new state. */
  state: 'opened' | 'closed';
  /** When (ISO), the issue's new `updated_at`. */
  at: string;
}

export type IssueStateListener = (trx: Db, change: IssueStateChange) => Promise<void>;

/** Per running server (tests run several in one process). */
const listenersOf = new WeakMap<ServerContext, IssueStateListener[]>();

export function onIssueStateChange(context: ServerContext, listener: IssueStateListener): void {
  const listeners = listenersOf.get(context) ?? [];
  listeners.push(listener);
  listenersOf.set(context, listeners);
}

export async function issueStateChanged(
  context: ServerContext,
  trx: Db,
  change: IssueStateChange,
): Promise<void> {
  for (const listener of listenersOf.get(context) ?? []) await listener(trx, change);
}
