// Project repository storage moves (document 1, section 4.8): an operator schedules a move of a project's
// repository to another configured storage; administrators follow them through the API.

import { findProject } from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import { projectIdentity } from '../../core/access/projectIdentity.js';
import type { ServerContext } from '../../core/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../core/http/errors.js';
import type { Schemas } from '../../core/http/types.js';
import { nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { ProjectRepositoryStorageMovesTable } from '../../core/store/tables.js';

export type StorageMove = Schemas['ProjectRepositoryStorageMove'];
export type StorageMoveRow = Omit<ProjectRepositoryStorageMovesTable, 'id'> & { id: number };
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
  const project = await context.db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', move.project_id)
    .executeTakeFirstOrThrow();
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
    const active = await trx
      .selectFrom('project_repository_storage_moves')
      .select('id')
      .where('project_id', '=', project.id)
      .where('state', 'in', ACTIVE_STATES)
      .executeTakeFirst();
    if (active)
      throw conflict(`Project ${project.id} already has a storage move in progress (move ${active.id})`);
    const now = nowIso();
    return trx
      .insertInto('project_repository_storage_moves')
      .values({
        project_id: project.id,
        state: 'scheduled',
        source_storage_name: project.repository_storage,
        destination_storage_name: destination,
        created_at: now,
        updated_at: now,
        error: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
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
  const page = await readPageOf(
    context.db,
    context.db.selectFrom('project_repository_storage_moves'),
    (query) => query.selectAll().orderBy('id', 'desc'),
    window,
  );
  const items = await Promise.all(page.items.map((row) => presentStorageMove(context, row)));
  return { items, total: page.total };
}

export async function getStorageMove(
  context: ServerContext,
  caller: Caller,
  id: number,
): Promise<StorageMove> {
  requireAdministrator(caller);
  const row = await context.db
    .selectFrom('project_repository_storage_moves')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Project repository storage move');
  return presentStorageMove(context, row);
}
