// The storage moves area's queries: the moves (table project_repository_storage_moves) and the project
// columns a move reads and switches.
import type { Db } from '../../core/store/database.js';
import { nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { ProjectRepositoryStorageMovesTable } from '../../core/store/tables.js';

export type StorageMoveRow = Omit<ProjectRepositoryStorageMovesTable, 'id'> & { id: number };

export function findStorageMove(db: Db, id: number): Promise<StorageMoveRow | undefined> {
  return db
    .selectFrom('project_repository_storage_moves')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

/** One page of the moves, newest first. */
export function pageOfStorageMoves(db: Db, window: PageWindow): Promise<Page<StorageMoveRow>> {
  return readPageOf(
    db,
    db.selectFrom('project_repository_storage_moves'),
    (query) => query.selectAll().orderBy('id', 'desc'),
    window,
  );
}

/** A move of the project in one of these states (one in progress), or undefined. */
export function findMoveInStates(
  db: Db,
  projectId: number,
  states: readonly string[],
): Promise<{ id: number } | undefined> {
  return db
    .selectFrom('project_repository_storage_moves')
    .select('id')
    .where('project_id', '=', projectId)
    .where('state', 'in', [...states])
    .executeTakeFirst();
}

/** Records a scheduled move (in the caller's transaction). */
export function insertScheduledMove(
  db: Db,
  move: { projectId: number; source: string; destination: string },
): Promise<StorageMoveRow> {
  const now = nowIso();
  return db
    .insertInto('project_repository_storage_moves')
    .values({
      project_id: move.projectId,
      state: 'scheduled',
      source_storage_name: move.source,
      destination_storage_name: move.destination,
      created_at: now,
      updated_at: now,
      error: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function setMoveState(
  db: Db,
  id: number,
  state: string,
  error: string | null,
): Promise<StorageMoveRow> {
  return db
    .updateTable('project_repository_storage_moves')
    .set({ state, error, updated_at: nowIso() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The project of a move (its row), or undefined when it no longer exists. */
export function findMovedProject(db: Db, projectId: number) {
  return db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
}

/**
 * Points the project at the destination if it is still on the source, with a new repository generation
 * (every server process drops what it read of the repository before), and marks the move replicated, in
 * one transaction. Returns whether the project was switched.
 */
export function switchProjectStorage(db: Db, move: StorageMoveRow): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('projects')
      .set((eb) => ({
        repository_storage: move.destination_storage_name,
        repository_generation: eb('repository_generation', '+', 1),
      }))
      .where('id', '=', move.project_id)
      .where('repository_storage', '=', move.source_storage_name)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await trx
      .updateTable('project_repository_storage_moves')
      .set({ state: 'replicated', updated_at: nowIso() })
      .where('id', '=', move.id)
      .execute();
    return true;
  });
}
