// The first schema: identities, namespaces, projects, memberships, branch protection and the job queue.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('avatar_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('personal_access_tokens')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_sha256', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('groups')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('full_path', 'text', (c) => c.notNull().unique())
    .addColumn('parent_id', 'integer', (c) => c.references('groups.id'))
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('projects')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('namespace_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('default_branch', 'text', (c) => c.notNull().defaultTo('main'))
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('repository_storage', 'text', (c) => c.notNull().defaultTo('default'))
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_activity_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('projects_namespace_path', ['namespace_id', 'path'])
    .execute();
  await db.schema
    .createTable('members')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('access_level', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('members_source_user', ['source_type', 'source_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('project_group_links')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('group_access', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addUniqueConstraint('project_group_links_pair', ['project_id', 'group_id'])
    .execute();
  await db.schema
    .createTable('protected_branches')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('code_owner_approval_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('protected_branches_project_name', ['project_id', 'name'])
    .execute();
  await db.schema
    .createTable('protected_branch_access_levels')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('protected_branch_id', 'integer', (c) =>
      c.notNull().references('protected_branches.id').onDelete('cascade'),
    )
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('access_level', 'integer')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create index jobs_state_run_at on jobs (state, run_at)`.execute(db);
  await sql`create index members_user on members (user_id)`.execute(db);
}
