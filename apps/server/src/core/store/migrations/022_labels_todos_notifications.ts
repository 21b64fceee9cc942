// Group labels, to-do items and notification settings (document 2, sections 4.8, 4.11 and 4.12).
// - `labels`: a label belongs to one group (or, later, one project); issues and merge requests carry label
//   names (issuable_labels), which GitLab matches to labels by title. Titles are unique per owner.
// - `label_subscriptions`: who is subscribed to which label.
// - `todos`: a user's to-do about a target object (`Issue`, `MergeRequest`, `Epic` …), created by the
//   areas that change those objects through the todos area's createTodo.
// - `notification_settings`: one row per user and source (`Global` with source_id 0, `Group`, `Project`);
//   the custom events are a JSON object of booleans, read and written whole.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('labels')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    // `#RRGGBB`: colour names are turned into hex before they are stored.
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('labels_one_owner', sql`(project_id is null) <> (group_id is null)`)
    .addUniqueConstraint('labels_group_title', ['group_id', 'title'])
    .addUniqueConstraint('labels_project_title', ['project_id', 'title'])
    .execute();

  await db.schema
    .createTable('label_subscriptions')
    .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('label_subscriptions_pkey', ['label_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('todos')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    // Whose to-do it is.
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Who caused it (the assigner, the mentioner).
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The project of a project object's to-do, or the group of a group object's (epics).
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    // GitLab's action name: assigned, mentioned, build_failed, marked, approval_required, unmergeable,
    // directly_addressed.
    .addColumn('action', 'text', (c) => c.notNull())
    // The mentioning note's text, or the target's title when the to-do was made.
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('note_id', 'integer')
    // `pending` or `done`.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('todos_user_state').on('todos').columns(['user_id', 'state', 'id']).execute();
  await db.schema.createIndex('todos_target').on('todos').columns(['target_type', 'target_id']).execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // `Global` (source_id 0), `Group` or `Project`.
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_id', 'integer', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    // JSON object of the custom events that were switched, {"new_note": true, …}; missing ones are off.
    .addColumn('events', 'text', (c) => c.notNull())
    // Global row only: the address notifications go to (null: the primary e-mail).
    .addColumn('notification_email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_settings_pkey', ['user_id', 'source_type', 'source_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_settings').execute();
  await db.schema.dropTable('todos').execute();
  await db.schema.dropTable('label_subscriptions').execute();
  await db.schema.dropTable('labels').execute();
}
