// Merge locks a crashed merge left behind (GitLab's `locked` state and its StuckMergeJobsWorker). A merge
// holds its merge request `locked` while it runs (merge.ts); a process that dies half-way leaves it so. A
// lock older than MERGE_LOCK_TIMEOUT_MS (or without a time: taken before locks had one) is released by the
// next merge attempt or single read of the merge request, and by a sweep queued at every start: a lock that
// is not stale yet may belong to a merge another process is making, so the sweep comes back for it when it
// would be.
import { findProject, type ProjectRow } from '../../core/access/access.js';
import type { ServerContext } from '../../core/context.js';
import { commitThatMerged } from '../../core/git/merges.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { nowIso } from '../../core/store/database.js';
import { writeMergeRequestState } from './stateWrite.js';
import {
  lockedMergeRequests,
  type MergeRequestRow,
  mergeRequestsById,
  updateMergeRequestIn,
} from './store.js';

/** How long a merge may hold its merge request `locked` before the lock counts as left behind. */
export const MERGE_LOCK_TIMEOUT_MS = 10 * 60_000;

/** A lock left behind: older than the timeout, or without a time. */
export function lockIsStale(row: MergeRequestRow, now = Date.now()): boolean {
  if (row.state !== 'locked') return false;
  return row.merge_locked_at === null || now - Date.parse(row.merge_locked_at) > MERGE_LOCK_TIMEOUT_MS;
}

/**
 * A lock a crashed merge left behind, released (GitLab's StuckMergeJobsWorker): merged when the commit it was
 * merging is in the target branch (the merge got as far as git), with the commit that brought it; back to
 * `opened` otherwise, its mergeability to be checked again. Any other merge request as it is.
 */
export async function releaseStaleLock(
  context: ServerContext,
  project: ProjectRow,
  row: MergeRequestRow,
): Promise<MergeRequestRow> {
  if (!lockIsStale(row)) return row;
  const repo = repositoryOf(context, project);
  const mergedBy = row.sha === null ? null : await commitThatMerged(repo, row.target_branch, row.sha);
  if (mergedBy === null) {
    const reopened = await updateMergeRequestIn(context.db, row.id, 'locked', {
      state: 'opened',
      merge_locked_at: null,
      merge_status: 'unchecked',
      updated_at: row.updated_at,
    });
    return reopened ?? (await asLeftMeanwhile(context, row));
  }
  const at = nowIso();
  const written = await writeMergeRequestState(
    context,
    project,
    row,
    'locked',
    {
      state: 'merged',
      merged_by_id: row.merge_user_id,
      merged_at: at,
      merge_commit_sha: mergedBy,
      merge_status: 'can_be_merged',
      merge_locked_at: null,
      merge_when_pipeline_succeeds: 0,
      merge_params: null,
      updated_at: at,
    },
    { action: 'merge', userId: row.merge_user_id ?? row.author_id },
  );
  return written ?? (await asLeftMeanwhile(context, row));
}

/** A lock released meanwhile (by the sweep, by another read): the merge request as that release left it. */
async function asLeftMeanwhile(context: ServerContext, row: MergeRequestRow): Promise<MergeRequestRow> {
  return (await mergeRequestsById(context.db, [row.id]))[0] ?? row;
}

const LOCK_SWEEP_JOB = 'mergeRequests.releaseStaleLocks';
/** Locks released per run of the sweep; a run that found more queues the next at once. */
const SWEEP_BATCH = 100;

export function registerLockSweep(context: ServerContext): void {
  context.jobs.register(LOCK_SWEEP_JOB, () => sweepStaleLocks(context));
}

/** Queues the sweep (at start: every process that runs jobs, the queue keeps one waiting). */
export function queueLockSweep(context: ServerContext): Promise<void> {
  return context.jobs.enqueueUnlessWaiting(LOCK_SWEEP_JOB, {});
}

/**
 * Releases the stale locks (releaseStaleLock) and, if a lock is left that is not stale yet, queues the sweep
 * again for when it will be.
 */
async function sweepStaleLocks(context: ServerContext): Promise<void> {
  const now = Date.now();
  const locked = await lockedMergeRequests(context.db, SWEEP_BATCH);
  let nextStaleAt: number | undefined;
  let released = 0;
  for (const row of locked) {
    if (!lockIsStale(row, now)) {
      const staleAt = Date.parse(row.merge_locked_at ?? '') + MERGE_LOCK_TIMEOUT_MS + 1000;
      nextStaleAt = Math.min(nextStaleAt ?? staleAt, staleAt);
      continue;
    }
    const project = await findProject(context.db, String(row.project_id));
    if (project && (await releaseStaleLock(context, project, row)) !== row) released += 1;
  }
  if (locked.length === SWEEP_BATCH && released > 0) nextStaleAt = now;
  if (nextStaleAt !== undefined)
    await context.jobs.enqueue(LOCK_SWEEP_JOB, {}, { delayMs: Math.max(0, nextStaleAt - Date.now()) });
}
