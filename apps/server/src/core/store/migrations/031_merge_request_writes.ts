// Merge requests made, changed and merged through the API (GitLab's merge_params and squash_commit_sha):
// - `should_remove_source_branch`: the merger's choice at merge time (null: not given), which the response
//   shows beside `force_remove_source_branch`, the author's choice at creation;
// - `squash_commit_sha`: the commit a squashing merge made;
// - an index on the open merge requests of a source branch, which each write checks for a duplicate.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('merge_requests').addColumn('should_remove_source_branch', 'integer').execute();
  await db.schema.alterTable('merge_requests').addColumn('squash_commit_sha', 'text').execute();
  await db.schema
    .createIndex('merge_requests_project_source_branch')
    .on('merge_requests')
    .columns(['project_id', 'source_branch', 'state'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('merge_requests_project_source_branch').execute();
  await db.schema.alterTable('merge_requests').dropColumn('squash_commit_sha').execute();
  await db.schema.alterTable('merge_requests').dropColumn('should_remove_source_branch').execute();
}
