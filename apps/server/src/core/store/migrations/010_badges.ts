// Badges (document 2, section 4.9): a badge belongs to exactly one project or one group. A project's list
// also shows the badges of its group and the group's ancestors, so both owners are indexed.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('badges')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('name', 'text')
    // As given, placeholders included: they are replaced when the badge is presented.
    .addColumn('link_url', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('badges_one_owner', sql`(project_id is null) <> (group_id is null)`)
    .execute();
  await db.schema.createIndex('badges_project_id').on('badges').column('project_id').execute();
  await db.schema.createIndex('badges_group_id').on('badges').column('group_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('badges').execute();
}
