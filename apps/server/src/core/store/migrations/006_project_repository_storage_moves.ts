// Moves of project repositories between storages (document 1, section 4.8), created by an operator command.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_repository_storage_moves')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source_storage_name', 'text', (c) => c.notNull())
    .addColumn('destination_storage_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // Why a move failed (or why its cleanup did); null otherwise. Not part of the API's representation.
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('project_repository_storage_moves_project_id')
    .on('project_repository_storage_moves')
    .column('project_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('project_repository_storage_moves').execute();
}
