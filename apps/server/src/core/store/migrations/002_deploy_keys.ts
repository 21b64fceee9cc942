// Deploy keys (document 1, section 4.5): one row per distinct SSH public key, joined to the projects using it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deploy_keys')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    // `SHA256:<base64>` of the key blob: the same key with another comment is still the same key.
    .addColumn('fingerprint_sha256', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('deploy_keys_projects')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('deploy_key_id', 'integer', (c) =>
      c.notNull().references('deploy_keys.id').onDelete('cascade'),
    )
    .addColumn('can_push', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    // A key is enabled at most once per project.
    .addPrimaryKeyConstraint('deploy_keys_projects_pk', ['project_id', 'deploy_key_id'])
    .execute();
  await db.schema
    .createIndex('deploy_keys_projects_deploy_key_id')
    .on('deploy_keys_projects')
    .column('deploy_key_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('deploy_keys_projects').execute();
  await db.schema.dropTable('deploy_keys').execute();
}
