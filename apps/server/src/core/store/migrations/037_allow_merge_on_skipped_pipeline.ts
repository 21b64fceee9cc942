// A project's `allow_merge_on_skipped_pipeline` (GitLab's project setting, issue 27): with
// `only_allow_merge_if_pipeline_succeeds`, a skipped head pipeline counts as a successful one. Off by default,
// 0/1 like the other flags (migration 018).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('allow_merge_on_skipped_pipeline', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('allow_merge_on_skipped_pipeline').execute();
}
