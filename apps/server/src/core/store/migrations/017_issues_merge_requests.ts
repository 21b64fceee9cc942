// Issues and merge requests (GitLab v4; the seeds leave them "not shown"). Both are numbered per project
// (`iid`) from a counter row per project and kind, taken in the creating transaction. Labels and the users
// attached to an issue or merge request (assignees, reviewers) are rows of their own, so lists filter by
// them in SQL that SQLite and PostgreSQL share.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('internal_ids')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // `issues` or `merge_requests`.
    .addColumn('usage', 'text', (c) => c.notNull())
    .addColumn('last_value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('internal_ids_pkey', ['project_id', 'usage'])
    .execute();

  await db.schema
    .createTable('issues')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // `opened` or `closed`.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('confidential', 'integer', (c) => c.notNull().defaultTo(0))
    // Null until someone locks or unlocks the discussion (GitLab's tri-state).
    .addColumn('discussion_locked', 'integer')
    .addColumn('due_date', 'text')
    .addColumn('closed_at', 'text')
    .addColumn('closed_by_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('issues_project_iid', ['project_id', 'iid'])
    .execute();
  await db.schema
    .createIndex('issues_project_created')
    .on('issues')
    .columns(['project_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('merge_requests')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    // The target project, whose merge request it is.
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // `opened`, `closed`, `locked` or `merged`.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('source_project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('source_branch', 'text', (c) => c.notNull())
    .addColumn('target_branch', 'text', (c) => c.notNull())
    // The source branch's head when the merge request was last updated (null if the branch was missing).
    .addColumn('sha', 'text')
    .addColumn('merge_commit_sha', 'text')
    // GitLab's merge_status: `unchecked`, `can_be_merged`, `cannot_be_merged` ….
    .addColumn('merge_status', 'text', (c) => c.notNull())
    .addColumn('merged_by_id', 'integer', (c) => c.references('users.id'))
    .addColumn('merged_at', 'text')
    .addColumn('closed_by_id', 'integer', (c) => c.references('users.id'))
    .addColumn('closed_at', 'text')
    .addColumn('squash', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('force_remove_source_branch', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('merge_when_pipeline_succeeds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('discussion_locked', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('merge_requests_project_iid', ['project_id', 'iid'])
    .execute();
  await db.schema
    .createIndex('merge_requests_project_created')
    .on('merge_requests')
    .columns(['project_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('issuable_labels')
    // `Issue` or `MergeRequest`.
    .addColumn('issuable_type', 'text', (c) => c.notNull())
    .addColumn('issuable_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('issuable_labels_pkey', ['issuable_type', 'issuable_id', 'name'])
    .execute();

  await db.schema
    .createTable('issuable_users')
    .addColumn('issuable_type', 'text', (c) => c.notNull())
    .addColumn('issuable_id', 'integer', (c) => c.notNull())
    // `assignee` or `reviewer`.
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The order the users were given in (the first assignee is the deprecated `assignee`).
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('issuable_users_pkey', ['issuable_type', 'issuable_id', 'role', 'user_id'])
    .execute();
  await db.schema
    .createIndex('issuable_users_user')
    .on('issuable_users')
    .columns(['user_id', 'role'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('issuable_users').execute();
  await db.schema.dropTable('issuable_labels').execute();
  await db.schema.dropTable('merge_requests').execute();
  await db.schema.dropTable('issues').execute();
  await db.schema.dropTable('internal_ids').execute();
}
