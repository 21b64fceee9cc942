// Fields GitLab clients read (issue 26):
// - `pipelines.iid`: the pipeline's number within its project (GitLab's `Ci::Pipeline#iid`), 1, 2, 3 … in
//   creation order; existing pipelines are numbered in their ID order.
// - `protected_branches.allow_force_push`: whether force pushes are allowed (GitLab's field, default false).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pipelines').addColumn('iid', 'integer').execute();
  await sql`
    update pipelines set iid = (
      select count(*) from pipelines as earlier
      where earlier.project_id = pipelines.project_id and earlier.id <= pipelines.id
    )`.execute(db);
  await db.schema
    .createIndex('pipelines_project_iid')
    .on('pipelines')
    .columns(['project_id', 'iid'])
    .unique()
    .execute();
  await db.schema
    .alterTable('protected_branches')
    .addColumn('allow_force_push', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('protected_branches').dropColumn('allow_force_push').execute();
  await db.schema.dropIndex('pipelines_project_iid').execute();
  await db.schema.alterTable('pipelines').dropColumn('iid').execute();
}
