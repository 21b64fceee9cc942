// Project hooks (document 2, sections 2, 4.3 and 6): webhooks of a project, made by the fixtures (the API only
// reads them), and the log of their deliveries, one row per event and hook, which the job queue works off.
import type { Kysely } from 'kysely';

/** The event flags of a hook (document 2, section 6.1), all off unless the fixture turns them on. */
const EVENT_FLAGS = [
  'push_events',
  'tag_push_events',
  'issues_events',
  'confidential_issues_events',
  'merge_requests_events',
  'note_events',
  'confidential_note_events',
  'job_events',
  'pipeline_events',
  'wiki_page_events',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  let hooks = db.schema
    .createTable('project_hooks')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    // Sent as the secret token header with each delivery, so it is kept as given; never in a response.
    .addColumn('token', 'text');
  for (const flag of EVENT_FLAGS) hooks = hooks.addColumn(flag, 'integer', (c) => c.notNull().defaultTo(0));
  await hooks
    // Empty: every branch. Otherwise a branch name or a wildcard (`release/*`).
    .addColumn('push_events_branch_filter', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('enable_ssl_verification', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_hooks_project_id').on('project_hooks').column('project_id').execute();

  await db.schema
    .createTable('project_hook_deliveries')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('hook_id', 'integer', (c) => c.notNull().references('project_hooks.id').onDelete('cascade'))
    // The event header's value: `Push Hook`, `Tag Push Hook`, `Pipeline Hook`.
    .addColumn('event', 'text', (c) => c.notNull())
    // One per event, the same for every hook and attempt (a receiver may drop repeats by it).
    .addColumn('event_uuid', 'text', (c) => c.notNull())
    // The JSON body, built when the event happened.
    .addColumn('payload', 'text', (c) => c.notNull())
    // `pending` (an attempt is queued), `delivered` or `failed` (out of attempts).
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_hook_deliveries_hook_id')
    .on('project_hook_deliveries')
    .column('hook_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('project_hook_deliveries').execute();
  await db.schema.dropTable('project_hooks').execute();
}
