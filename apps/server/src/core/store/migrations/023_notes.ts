// Notes (document 2, 4.4; GitLab v4's Note): comments on issues, merge requests, project snippets and epics.
// A note points at its object polymorphically (`noteable_type`/`noteable_id`, as GitLab); the project or group
// the object belongs to is kept too, so deleting a project or group deletes its notes. (The award emoji a note
// that is only an emoji gives are rows of `award_emoji`, migration 021.)
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notes')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    // `Issue`, `MergeRequest`, `Snippet` or `Epic`.
    .addColumn('noteable_type', 'text', (c) => c.notNull())
    .addColumn('noteable_id', 'integer', (c) => c.notNull())
    // The project of an issue, merge request or project snippet; null for an epic.
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    // The group of an epic; null otherwise.
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('body', 'text', (c) => c.notNull())
    // 1 for the notes the server writes about changes to the object (closed, reopened).
    .addColumn('system', 'integer', (c) => c.notNull().defaultTo(0))
    // 1 for internal notes, which only Reporters and above read.
    .addColumn('confidential', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notes_noteable_created')
    .on('notes')
    .columns(['noteable_type', 'noteable_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notes').execute();
}
