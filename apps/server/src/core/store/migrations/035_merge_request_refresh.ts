// Merge requests kept as GitLab keeps them (issue 27):
// - `diff_base_sha`, `diff_start_sha`, `changes_count`: the diff of the source against the target as last
//   refreshed (GitLab's merge_request_diffs: base, start and head SHAs, real_size), the head being `sha`;
// - `merge_locked_at`: when the merge lock (`locked`) was taken, so that a lock a crashed merge left behind
//   is found and released;
// - `merge_user_id`, `merge_params`: who set "merge when the pipeline succeeds" and with which parameters
//   (GitLab's merge_user_id and merge_params), used when the head pipeline succeeds;
// - `merge_error`: why the last automatic merge failed or was cancelled.
import type { Kysely } from 'kysely';

const COLUMNS = [
  ['diff_base_sha', 'text'],
  ['diff_start_sha', 'text'],
  ['changes_count', 'integer'],
  ['merge_locked_at', 'text'],
  ['merge_user_id', 'integer'],
  ['merge_params', 'text'],
  ['merge_error', 'text'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type] of COLUMNS)
    await db.schema.alterTable('merge_requests').addColumn(name, type).execute();
  // The merge requests whose head pipeline may merge them, looked up at each pipeline status change.
  await db.schema
    .createIndex('merge_requests_auto_merge')
    .on('merge_requests')
    .columns(['project_id', 'merge_when_pipeline_succeeds', 'state'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('merge_requests_auto_merge').execute();
  for (const [name] of [...COLUMNS].reverse())
    await db.schema.alterTable('merge_requests').dropColumn(name).execute();
}
