// Project integrations (document 2, 4.16; GitLab's `integrations` table): one row per project and slug. The
// slug's own settings, secrets included, are one JSON object (`properties`), read and written through the
// slug's description in areas/integrations/catalog.ts; the event flags are columns, so that an event finds the
// integrations it concerns with one query.
import type { Kysely } from 'kysely';

const EVENT_FLAGS = [
  'push_events',
  'issues_events',
  'confidential_issues_events',
  'merge_requests_events',
  'tag_push_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'job_events',
  'commit_events',
  'comment_on_event_enabled',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  let table = db.schema
    .createTable('integrations')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('properties', 'text', (c) => c.notNull().defaultTo('{}'));
  for (const flag of EVENT_FLAGS) table = table.addColumn(flag, 'integer', (c) => c.notNull().defaultTo(0));
  await table
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('integrations_project_slug', ['project_id', 'slug'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('integrations').execute();
}
