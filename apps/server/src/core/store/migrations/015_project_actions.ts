// Project actions (document 2, 4.2): the mark of a delayed deletion (higher tiers) and the files uploaded to
// a project for Markdown links.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // When the project was marked for deletion (an ISO timestamp; the API shows its day). The deletion job
  // compares it with the mark it was scheduled for, so a restored and marked-again project waits anew.
  await db.schema.alterTable('projects').addColumn('marked_for_deletion_at', 'text').execute();
  await db.schema
    .createTable('project_uploads')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // 32 hex characters: the URL of a file cannot be guessed from the project's other files.
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('project_uploads_project_secret', ['project_id', 'secret'])
    .execute();
}
