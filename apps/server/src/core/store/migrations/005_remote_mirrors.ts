// Push mirrors of project repositories (document 1, section 4.6).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('remote_mirrors')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // Stored with its credentials (git needs them to push); every response masks them.
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('only_protected_branches', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('keep_divergent_refs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('update_status', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('last_error', 'text')
    .addColumn('last_update_at', 'text')
    .addColumn('last_update_started_at', 'text')
    .addColumn('last_successful_update_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('remote_mirrors_project_id')
    .on('remote_mirrors')
    .column('project_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('remote_mirrors').execute();
}
