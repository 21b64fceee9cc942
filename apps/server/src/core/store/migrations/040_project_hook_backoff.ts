// A project hook's failure state (GitLab's WebHooks::AutoDisabling, issue 25): `recent_failures` counts the
// failed attempts since its last success, `disabled_until` is when a hook that keeps failing may be tried
// again. Both reset on a success.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('project_hooks')
    .addColumn('recent_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('project_hooks').addColumn('disabled_until', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('project_hooks').dropColumn('disabled_until').execute();
  await db.schema.alterTable('project_hooks').dropColumn('recent_failures').execute();
}
