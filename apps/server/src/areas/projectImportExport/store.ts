// The export and import area's queries: a project's export request (table project_exports, one row per
// project, its generation counting requests), its import (project_imports) with the relations that failed
// to import (project_import_failures), and the project rows an import makes and fills.
import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import type {
  ProjectExportsTable,
  ProjectImportFailuresTable,
  ProjectImportsTable,
  ProjectsTable,
} from '../../core/store/tables.js';

/* Exports ----------------------------------------------------------------------------------------- */

export function findExport(db: Db, projectId: number) {
  return db.selectFrom('project_exports').selectAll().where('project_id', '=', projectId).executeTakeFirst();
}

/** What a new export request sets on the project's export row. */
export type ExportRequest = Pick<
  Insertable<ProjectExportsTable>,
  'status' | 'description' | 'upload_url' | 'upload_http_method' | 'error' | 'updated_at'
>;

/**
 * Records an export request: a new row at generation 1, or the next generation of the project's row, with
 * the status `request(current)` gives (in one transaction). Returns the request's generation.
 */
export function requestExport(
  db: Db,
  projectId: number,
  request: (current: { file_path: string | null } | undefined) => ExportRequest,
  now: string,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const current = await findExport(trx, projectId);
    const values = request(current);
    if (!current) {
      await trx
        .insertInto('project_exports')
        .values({ ...values, project_id: projectId, generation: 1, file_path: null, created_at: now })
        .execute();
      return 1;
    }
    await trx
      .updateTable('project_exports')
      .set({ ...values, generation: current.generation + 1 })
      .where('id', '=', current.id)
      .execute();
    return current.generation + 1;
  });
}

/** Changes the export row if it still belongs to this request (generation); returns whether it did. */
export async function updateExportRequest(
  db: Db,
  projectId: number,
  generation: number,
  changes: Updateable<ProjectExportsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('project_exports')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('generation', '=', generation)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/* Imports ----------------------------------------------------------------------------------------- */

export function findImport(db: Db, projectId: number) {
  return db.selectFrom('project_imports').selectAll().where('project_id', '=', projectId).executeTakeFirst();
}

/** The first `limit` relations that failed to import, oldest first. */
export function importFailures(db: Db, projectId: number, limit: number) {
  return db
    .selectFrom('project_import_failures')
    .select(['id', 'created_at', 'exception_class', 'exception_message', 'source', 'relation_name'])
    .where('project_id', '=', projectId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function findProjectByPath(db: Db, namespaceId: number, path: string) {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('namespace_id', '=', namespaceId)
    .where('path', '=', path)
    .executeTakeFirst();
}

export function findProjectRow(db: Db, projectId: number) {
  return db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirstOrThrow();
}

export function findNamespace(db: Db, groupId: number) {
  return db.selectFrom('groups').selectAll().where('id', '=', groupId).executeTakeFirstOrThrow();
}

/** What an import request records on the project's import row. */
export type ImportRequest = Pick<
  Insertable<ProjectImportsTable>,
  'status' | 'correlation_id' | 'import_error' | 'archive_path' | 'override_params' | 'updated_at'
>;

/**
 * Records an import request in one transaction: the new project (`newProject`) or the existing one
 * (`existingId`), its import row scheduled, its earlier failures gone. Returns the project's ID.
 */
export function recordImportRequest(
  db: Db,
  target: { existingId: number } | { newProject: Insertable<ProjectsTable> },
  request: ImportRequest,
  now: string,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const id =
      'existingId' in target
        ? target.existingId
        : (
            await trx
              .insertInto('projects')
              .values(target.newProject)
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id;
    const updated = await trx
      .updateTable('project_imports')
      .set(request)
      .where('project_id', '=', id)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n)
      await trx
        .insertInto('project_imports')
        .values({ ...request, project_id: id, created_at: now })
        .execute();
    await trx.deleteFrom('project_import_failures').where('project_id', '=', id).execute();
    return id;
  });
}

/** Changes the import row if it still belongs to this import (correlation ID). */
export async function updateImport(
  db: Db,
  importId: number,
  correlationId: string,
  changes: Updateable<ProjectImportsTable>,
): Promise<void> {
  await db
    .updateTable('project_imports')
    .set(changes)
    .where('id', '=', importId)
    .where('correlation_id', '=', correlationId)
    .execute();
}

/** Applies the archive's attributes to the imported project (in the finishing transaction). */
export async function applyImportedProject(
  db: Db,
  projectId: number,
  changes: Pick<
    Updateable<ProjectsTable>,
    'name' | 'description' | 'visibility' | 'default_branch' | 'last_activity_at'
  >,
): Promise<void> {
  await db.updateTable('projects').set(changes).where('id', '=', projectId).execute();
}

/** Replaces the project's failed relations (in the finishing transaction). */
export async function replaceImportFailures(
  db: Db,
  projectId: number,
  failures: readonly Insertable<ProjectImportFailuresTable>[],
): Promise<void> {
  await db.deleteFrom('project_import_failures').where('project_id', '=', projectId).execute();
  if (failures.length > 0)
    await db
      .insertInto('project_import_failures')
      .values([...failures])
      .execute();
}
