// Project settings (document 2, 4.2; GitLab v4's project create and edit): the feature switches, merge and CI
// settings and topics that `POST /projects` and `PUT /projects/:id` set and the full project form shows.
// Booleans are 0/1 like the other flags; the defaults are GitLab's for a new project.
import type { Kysely } from 'kysely';

/** Column, default (GitLab's). */
const FLAGS: readonly [string, 0 | 1][] = [
  ['wiki_enabled', 1],
  ['jobs_enabled', 1],
  ['snippets_enabled', 1],
  ['container_registry_enabled', 0],
  ['shared_runners_enabled', 1],
  ['public_jobs', 1],
  ['request_access_enabled', 1],
  ['only_allow_merge_if_pipeline_succeeds', 0],
  ['only_allow_merge_if_all_discussions_are_resolved', 0],
  ['remove_source_branch_after_merge', 1],
  ['resolve_outdated_diff_discussions', 0],
  ['autoclose_referenced_issues', 1],
  ['auto_devops_enabled', 0],
  ['packages_enabled', 1],
  ['lfs_enabled', 1],
  ['printing_merge_request_link_enabled', 1],
  ['emails_disabled', 0],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [column, value] of FLAGS)
    await db.schema
      .alterTable('projects')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(value))
      .execute();
  const texts: [string, string][] = [
    ['merge_method', 'merge'],
    ['auto_devops_deploy_strategy', 'continuous'],
    ['auto_cancel_pending_pipelines', 'enabled'],
    // A JSON array of strings.
    ['topics', '[]'],
  ];
  for (const [column, value] of texts)
    await db.schema
      .alterTable('projects')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(value))
      .execute();
  await db.schema.alterTable('projects').addColumn('suggestion_commit_message', 'text').execute();
  await db.schema.alterTable('projects').addColumn('ci_config_path', 'text').execute();
  await db.schema
    .alterTable('projects')
    .addColumn('build_timeout', 'integer', (c) => c.notNull().defaultTo(3600))
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('ci_default_git_depth', 'integer', (c) => c.defaultTo(50))
    .execute();
}
