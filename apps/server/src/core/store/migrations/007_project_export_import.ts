// Project export and import (document 1, section 4.7): one export and one import record per project, and the
// relations an import could not restore.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_exports')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().unique().references('projects.id').onDelete('cascade'),
    )
    .addColumn('status', 'text', (c) => c.notNull())
    // Counts export requests: a job whose request was superseded by a newer one stops.
    .addColumn('generation', 'integer', (c) => c.notNull())
    // The downloadable archive, relative to the data directory; null until a first export finished.
    .addColumn('file_path', 'text')
    .addColumn('description', 'text')
    .addColumn('upload_url', 'text')
    .addColumn('upload_http_method', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('project_imports')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().unique().references('projects.id').onDelete('cascade'),
    )
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('import_error', 'text')
    // The uploaded archive, relative to the data directory, until the import job has used it.
    .addColumn('archive_path', 'text')
    // JSON object of the project fields that take precedence over the archive.
    .addColumn('override_params', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('project_import_failures')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('exception_class', 'text', (c) => c.notNull())
    .addColumn('exception_message', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('relation_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_import_failures_project')
    .on('project_import_failures')
    .column('project_id')
    .execute();
}
