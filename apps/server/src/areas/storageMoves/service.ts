// Project repository storage moves (document 1, section 4.8): an operator schedules a move of a project's
// repository to another configured storage; administrators follow them through the API.

import { findProject } from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import { projectIdentity } from '../../core/access/projectIdentity.js';
import type { ServerContext } from '../../core/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../core/http/errors.js';
import type { Schemas } from '../../core/http/types.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import {
  findMovedProject,
  findMoveInStates,
  findStorageMove,
  insertScheduledMove,
  pageOfStorageMoves,
  type StorageMoveRow,
} from './store.js';

export type StorageMove = Schemas['ProjectRepositoryStorageMove'];
export type { StorageMoveRow } from './store.js';
export type StorageMoveState = StorageMove['state'];

/** The job that carries out one move; its payload is `{ moveId }`. */
export const STORAGE_MOVE_JOB = 'project-repository-storage-move';

/** States after which nothing more happens to a move. */
export const FINAL_STORAGE_MOVE_STATES: readonly StorageMoveState[] = [
  'finished',
  'failed',
  'cleanup_failed',
];
const ACTIVE_STATES: readonly StorageMoveState[] = ['initial', 'scheduled', 'started', 'replicated'];

function requireAdministrator(caller: Caller): void {
  requireScope(caller, 'read_api');
  if (!requireUser(caller).isAdmin) throw forbidden();
}

export async function presentStorageMove(context: ServerContext, move: StorageMoveRow): Promise<StorageMove> {
  const project = await findMovedProject(context.db, move.project_id);
  if (!project) throw new Error(`storage move ${move.id}: project ${move.project_id} is missing`);
  return {
    id: move.id,
    created_at: move.created_at,
    state: move.state as StorageMoveState,
    source_storage_name: move.source_storage_name,
    destination_storage_name: move.destination_storage_name,
    project: await projectIdentity(context.db, project),
  };
}

export interface ScheduleOptions {
  /** Delay of the queued job; the move command runs the move itself and keeps the job as a fallback. */
  delayMs?: number;
}

/**
 * Records a move of the project's repository to `destination` in state `scheduled` and queues the job that
 * carries it out (any server on the same data directory picks it up). Refuses unknown storages, a move to
 * where the repository already is, and a second move of a project whose move is still in progress.
 */
export async function scheduleStorageMove(
  context: ServerContext,
  projectIdOrPath: string,
  destination: string,
  options: ScheduleOptions = {},
): Promise<StorageMove> {
  const project = await findProject(context.db, projectIdOrPath);
  if (!project) throw notFound('Project');
  if (!context.storages.names.includes(destination)) {
    throw badRequest(
      `Unknown repository storage: ${destination} (configured: ${context.storages.names.join(', ')})`,
    );
  }
  if (project.repository_storage === destination) {
    throw badRequest(`The repository of project ${project.id} is already on storage ${destination}`);
  }
  const move = await context.db.transaction().execute(async (trx) => {
    const active = await findMoveInStates(trx, project.id, ACTIVE_STATES);
    if (active)
      throw conflict(`Project ${project.id} already has a storage move in progress (move ${active.id})`);
    return insertScheduledMove(trx, {
      projectId: project.id,
      source: project.repository_storage,
      destination,
    });
  });
  await context.jobs.enqueue(STORAGE_MOVE_JOB, { moveId: move.id }, { delayMs: options.delayMs });
  return presentStorageMove(context, move);
}

export async function listStorageMoves(
  context: ServerContext,
  caller: Caller,
  window: PageWindow,
): Promise<Page<StorageMove>> {
  requireAdministrator(caller);
  const page = await pageOfStorageMoves(context.db, window);
  const items = await Promise.all(page.items.map((row) => presentStorageMove(context, row)));
  return { items, total: page.total };
}

export async function getStorageMove(
  context: ServerContext,
  caller: Caller,
  id: number,
): Promise<StorageMove> {
  requireAdministrator(caller);
  const row = await findStorageMove(context.db, id);
  if (!row) throw notFound('Project repository storage move');
  return presentStorageMove(context, row);
}
