// Projects area (document 2, 4.2): stars, custom attributes (of projects, groups and users), the stored
// languages of repositories (for `with_programming_language`), the issues and merge requests features of a
// project, and the indexes that let a project list read one page in any of its orders.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_stars')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('project_stars_user_project', ['user_id', 'project_id'])
    .execute();
  // Starrers of a project in starring order, and star counts of a page of projects.
  await sql`create index project_stars_project on project_stars (project_id, created_at)`.execute(db);

  await db.schema
    .createTable('custom_attributes')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    /** `Project`, `Group` or `User`. */
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('custom_attributes_subject_key', ['subject_type', 'subject_id', 'key'])
    .execute();
  // The `custom_attributes[key]=value` filter looks subjects up by key and value.
  await sql`create index custom_attributes_key_value on custom_attributes (subject_type, key, value)`.execute(
    db,
  );

  // The languages of a project's repository at its default branch, as detected at `languages_generation`.
  await db.schema
    .createTable('project_languages')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('share', 'real', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_languages_pk', ['project_id', 'name'])
    .execute();
  await sql`create index project_languages_name on project_languages (name, project_id)`.execute(db);

  await db.schema.alterTable('projects').addColumn('languages_generation', 'integer').execute();
  await db.schema
    .alterTable('projects')
    .addColumn('issues_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('merge_requests_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  // One index per order of the project lists (the id breaks ties), and the lookups of the visibility filter.
  for (const column of ['created_at', 'last_activity_at', 'name', 'path'])
    await sql`create index ${sql.raw(`projects_${column}_id`)} on projects (${sql.raw(column)}, id)`.execute(
      db,
    );
  await sql`create index groups_parent on groups (parent_id)`.execute(db);
  await sql`create index project_group_links_group on project_group_links (group_id)`.execute(db);
}
