// Carries out a project repository storage move: scheduled → started → (copy, verify, switch) replicated →
// (remove the source) finished; failed when the copy cannot be made or does not match, cleanup_failed when
// the project has moved but the source copy could not be removed.
//
// Each step can be repeated, so a move interrupted by a restart is simply run again: before the switch
// the destination copy is rebuilt from scratch, after it only the source is left to remove.
import { cp, rename, rm } from 'node:fs/promises';
import type { ServerContext } from '../../core/context.js';
import { repositoryReadCache } from '../../core/git/readCache.js';
import { GitRepository } from '../../core/git/repository.js';
import {
  FINAL_STORAGE_MOVE_STATES,
  STORAGE_MOVE_JOB,
  type StorageMoveRow,
  type StorageMoveState,
} from './service.js';
import { findMovedProject, findStorageMove, setMoveState, switchProjectStorage } from './store.js';

/**
 * What identifies a repository's content for the move: every branch tip and where HEAD points. Read past
 * the read cache: the move changes repositories behind git's back, and in the move command's process the
 * server's commits do not invalidate anything.
 */
async function fingerprint(path: string): Promise<string> {
  repositoryReadCache.invalidate(path);
  const repository = new GitRepository(path);
  const [branches, head] = await Promise.all([repository.listBranches(), repository.defaultBranch()]);
  return JSON.stringify({ head, branches: branches.map((branch) => [branch.name, branch.commit.id]) });
}

async function setState(
  context: ServerContext,
  move: StorageMoveRow,
  state: StorageMoveState,
  error: string | null = null,
): Promise<StorageMoveRow> {
  return setMoveState(context.db, move.id, state, error);
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Copies the bare repository next to its destination and renames it into place (a crash never leaves a
 * half copy under the final name), checks that the copy has the same refs, then points the project at
 * the destination. Returns whether the source still matched after the switch: a commit that raced the
 * switch would exist only there, so the source must then be kept.
 */
async function replicate(
  context: ServerContext,
  move: StorageMoveRow,
): Promise<{ sourceStillMatches: boolean }> {
  const source = context.storages.pathFor(move.source_storage_name, move.project_id);
  const destination = context.storages.pathFor(move.destination_storage_name, move.project_id);
  const staging = `${destination}.moving`;
  await Promise.all([
    rm(staging, { recursive: true, force: true }),
    rm(destination, { recursive: true, force: true }),
  ]);
  let copiedFingerprint = '';
  try {
    const before = await fingerprint(source);
    await cp(source, staging, { recursive: true, errorOnExist: true, force: false, verbatimSymlinks: true });
    await rename(staging, destination);
    // A project that lived on this storage before may have left cached reads of this path behind.
    repositoryReadCache.invalidate(destination);
    copiedFingerprint = await fingerprint(destination);
    if (copiedFingerprint !== before || (await fingerprint(source)) !== before) {
      throw new Error(
        'the copy does not match the source (the repository changed during the copy); run the move again',
      );
    }
    const switched = await switchProjectStorage(context.db, move);
    if (!switched) throw new Error('the project changed storage while its repository was being copied');
  } catch (error) {
    // Nothing points at the destination yet: leave no copy behind.
    await Promise.all([
      rm(staging, { recursive: true, force: true }),
      rm(destination, { recursive: true, force: true }),
    ]);
    throw error;
  }
  // From here on the project lives on the destination, which must never be removed. When the source cannot
  // be compared, it is kept too.
  const sourceStillMatches = await fingerprint(source).then(
    (now) => now === copiedFingerprint,
    () => false,
  );
  return { sourceStillMatches };
}

/** Runs (or resumes) one move; returns its final row, or undefined when the move does not exist. */
export async function runStorageMove(
  context: ServerContext,
  moveId: number,
): Promise<StorageMoveRow | undefined> {
  const { db } = context;
  let move = await findStorageMove(db, moveId);
  if (!move || FINAL_STORAGE_MOVE_STATES.includes(move.state as StorageMoveState)) return move;

  let sourceStillMatches = true;
  try {
    const project = await findMovedProject(db, move.project_id);
    if (!project) throw new Error('the project no longer exists');
    if (move.state !== 'started' && move.state !== 'replicated')
      move = await setState(context, move, 'started');
    if (project.repository_storage === move.source_storage_name) {
      ({ sourceStillMatches } = await replicate(context, move));
    } else if (project.repository_storage !== move.destination_storage_name) {
      throw new Error(
        `the repository is on storage ${project.repository_storage}, neither ${move.source_storage_name} nor ${move.destination_storage_name}`,
      );
    }
    // Here the project points at the destination (switched now, or before an interruption).
    move = await setState(context, move, 'replicated');
  } catch (error) {
    return setState(context, move, 'failed', messageOf(error));
  }

  try {
    const source = context.storages.pathFor(move.source_storage_name, move.project_id);
    if (!sourceStillMatches) {
      return setState(
        context,
        move,
        'cleanup_failed',
        `the source repository changed after the copy; it is kept at ${source}`,
      );
    }
    await rm(source, { recursive: true, force: true });
    repositoryReadCache.invalidate(source);
  } catch (error) {
    return setState(context, move, 'cleanup_failed', messageOf(error));
  }
  return setState(context, move, 'finished');
}

/** Registers the move job. Called once from registerJobHandlers. */
export function registerStorageMoveJobs(context: ServerContext): void {
  context.jobs.register(STORAGE_MOVE_JOB, async (payload) => {
    const { moveId } = payload as { moveId: number };
    await runStorageMove(context, moveId);
  });
}
