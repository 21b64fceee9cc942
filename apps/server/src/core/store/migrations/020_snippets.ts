// Snippets (document 2, 4.5 and 4.6; GitLab v4's Snippet, PersonalSnippet and ProjectSnippet): personal
// snippets (no project) and project snippets in one table, told apart by `project_id`. A snippet holds one or
// more files (GitLab keeps them in a repository; here, rows of `snippet_files`); its `file_name` and raw
// content are those of its first file by path, as GitLab's are of the repository's first blob. The user agent
// and IP address of the creating request are kept for the administrators' user-agent detail.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('snippets')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    // Null for a personal snippet.
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // `private`, `internal` or `public`.
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ip_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('akismet_submitted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snippets_project').on('snippets').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('snippets_author').on('snippets').columns(['author_id', 'id']).execute();
  await db.schema.createIndex('snippets_visibility').on('snippets').columns(['visibility', 'id']).execute();

  await db.schema
    .createTable('snippet_files')
    .addColumn('snippet_id', 'integer', (c) => c.notNull().references('snippets.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('snippet_files_pkey', ['snippet_id', 'path'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('snippet_files').execute();
  await db.schema.dropTable('snippets').execute();
}
