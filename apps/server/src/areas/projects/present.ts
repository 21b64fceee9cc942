// Project rows → the spec's ProjectSummary and ProjectFull bodies (GitLab's BasicProjectDetails and
// ProjectWithAccess). A page is presented with a constant number of batched queries (namespace chains, star
// counts, the caller's memberships, shares, owners, imports, custom attributes) whatever its size; the
// repository facts (empty or not, README) are cached per repository generation.

import type { ProjectRow } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import { membershipCounts } from '../../core/access/membership.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryReadCache } from '../../core/git/readCache.js';
import { repositoryOf } from '../../core/git/repositories.js';
import type { TreeFile } from '../../core/git/repository.js';
import type { Schemas } from '../../core/http/types.js';
import { customAttributesOf } from '../../core/store/customAttributes.js';
import { todayIso } from '../../core/store/database.js';
import { avatarUrl } from '../avatars/index.js';
import { topicsOf } from './settings.js';
import {
  groupLevelsOf,
  importsOf,
  type NamespaceChainRow,
  namespaceChains,
  projectMemberLevels,
  type ShareRow,
  sharesOf,
  starCounts,
  usersNamed,
} from './store.js';

export type ProjectSummary = Schemas['ProjectSummary'];
export type ProjectFull = Schemas['ProjectFull'];

/** How to present a page of projects. */
export interface PresentOptions {
  /** scheme://host of the request, for the URLs. */
  origin: string;
  /** Add `statistics` (the service passes it for administrators only). */
  statistics?: boolean;
  /** Add `custom_attributes` (the service passes it for administrators only). */
  customAttributes?: boolean;
  /** Add the fields of the shared-projects list (`GET /groups/:id/projects/shared`). */
  sharedProjectFields?: boolean;
}

/** GitLab's `global` notification level: the caller's setting until notification settings say otherwise. */
const GLOBAL_NOTIFICATION_LEVEL = 3;

/** What presenting needs from a repository, read once per repository generation. */
interface RepositoryFacts {
  empty: boolean;
  /** The README at the top of the default branch, if any. */
  readme: string | null;
}

const README = /^readme(\.[^/]*)?$/i;

async function repositoryFacts(context: ServerContext, project: ProjectRow): Promise<RepositoryFacts> {
  const repository = repositoryOf(context, project);
  // Cached with the failure folded in: a repository git cannot read (missing, being moved) is shown as
  // empty rather than failing a list, and is not asked again until its generation changes.
  return repositoryReadCache.get(repository.path, `projects:facts\0${project.default_branch}`, async () => {
    let files: TreeFile[] | null;
    try {
      files = await repository.listTreeFiles(project.default_branch, { recursive: false });
    } catch {
      files = null;
    }
    if (!files) return { empty: true, readme: null };
    const readme = files
      .map((file) => file.path)
      .filter((path) => README.test(path))
      .sort()[0];
    return { empty: false, readme: readme ?? null };
  });
}

async function statisticsOf(
  context: ServerContext,
  project: ProjectRow,
): Promise<Schemas['ProjectStatistics']> {
  const repository = repositoryOf(context, project);
  let commitCount = 0;
  let repositorySize = 0;
  try {
    commitCount = await repository.commitCount(project.default_branch);
    const files = await repository.listTreeFiles(project.default_branch, { recursive: true });
    // The bytes of the default branch's files: this service keeps no packed-size accounting.
    repositorySize = (files ?? []).reduce((sum, file) => sum + file.size, 0);
  } catch {
    // An unreadable repository counts as empty.
  }
  return {
    commit_count: commitCount,
    storage_size: repositorySize,
    repository_size: repositorySize,
    wiki_size: 0,
    lfs_objects_size: 0,
    job_artifacts_size: 0,
    packages_size: 0,
  };
}

/** The related rows of a page, read in one batch each. */
interface PageContext {
  chains: Map<number, NamespaceChainRow[]>;
  stars: Map<number, number>;
  facts: Map<number, RepositoryFacts>;
  attributes: Map<number, { key: string; value: string }[]> | undefined;
}

async function readPageContext(
  context: ServerContext,
  rows: readonly ProjectRow[],
  options: PresentOptions,
): Promise<PageContext> {
  const ids = rows.map((row) => row.id);
  const [chains, stars, facts, attributes] = await Promise.all([
    namespaceChains(
      context.db,
      rows.map((row) => row.namespace_id),
    ),
    starCounts(context.db, ids),
    Promise.all(rows.map(async (row) => [row.id, await repositoryFacts(context, row)] as const)),
    options.customAttributes ? customAttributesOf(context.db, 'Project', ids) : undefined,
  ]);
  return { chains, stars, facts: new Map(facts), attributes };
}

function summaryOf(row: ProjectRow, page: PageContext, origin: string): ProjectSummary {
  const chain = page.chains.get(row.namespace_id) ?? [];
  const namespacePath = chain[0]?.full_path ?? '';
  const fullPath = `${namespacePath}/${row.path}`;
  const webUrl = `${origin}/${fullPath}`;
  const facts = page.facts.get(row.id) ?? { empty: true, readme: null };
  const host = new URL(origin).hostname;
  const topics = topicsOf(row);
  const summary: ProjectSummary = {
    id: row.id,
    description: row.description,
    default_branch: facts.empty ? null : row.default_branch,
    ssh_url_to_repo: `git@${host}:${fullPath}.git`,
    http_url_to_repo: `${webUrl}.git`,
    web_url: webUrl,
    readme_url: facts.readme ? `${webUrl}/-/blob/${row.default_branch}/${facts.readme}` : null,
    tag_list: topics,
    topics,
    name: row.name,
    name_with_namespace: [...chain.map((group) => group.name).reverse(), row.name].join(' / '),
    path: row.path,
    path_with_namespace: fullPath,
    created_at: row.created_at,
    last_activity_at: row.last_activity_at,
    forks_count: 0,
    avatar_url: row.avatar ? `${origin}${avatarUrl('project', row.id, row.avatar)}` : null,
    star_count: page.stars.get(row.id) ?? 0,
  };
  if (page.attributes) summary.custom_attributes = page.attributes.get(row.id) ?? [];
  return summary;
}

/** Projects in the summary form (anonymous callers and `simple=true`). */
export async function presentProjectSummaries(
  context: ServerContext,
  rows: readonly ProjectRow[],
  options: PresentOptions,
): Promise<ProjectSummary[]> {
  const page = await readPageContext(context, rows, options);
  return rows.map((row) => summaryOf(row, page, options.origin));
}

function namespaceOf(chain: NamespaceChainRow[], origin: string): Schemas['ProjectNamespace'] {
  const namespace = chain[0];
  if (!namespace) throw new Error('a project without a namespace');
  const kind = namespace.kind === 'user' ? 'user' : 'group';
  return {
    id: namespace.id,
    name: namespace.name,
    path: namespace.path,
    kind,
    full_path: namespace.full_path,
    parent_id: namespace.parent_id,
    // A group's avatar, as GitLab's NamespaceBasic shows it (personal namespaces have none here).
    avatar_url:
      kind === 'group' && namespace.avatar
        ? `${origin}${avatarUrl('group', namespace.id, namespace.avatar)}`
        : null,
    web_url: kind === 'user' ? `${origin}/${namespace.full_path}` : `${origin}/groups/${namespace.full_path}`,
  };
}

const accessOf = (level: number | undefined): Schemas['ProjectPermissionAccess'] | null =>
  level ? { access_level: level, notification_level: GLOBAL_NOTIFICATION_LEVEL } : null;

/**
 * Projects in the full form, with the caller's `permissions`: the direct membership of the project and the
 * (inherited) membership of its group, each null when there is none. Administrators also get
 * `repository_storage`; `statistics`, `custom_attributes` and the shared-projects fields on request.
 */
export async function presentFullProjects(
  context: ServerContext,
  caller: Caller,
  rows: readonly ProjectRow[],
  options: PresentOptions,
): Promise<ProjectFull[]> {
  const { db } = context;
  const user = caller.user;
  const ids = rows.map((row) => row.id);
  const [page, memberLevels, shares, imports, statistics] = await Promise.all([
    readPageContext(context, rows, options),
    user ? projectMemberLevels(db, user.id, ids) : new Map<number, number>(),
    sharesOf(db, ids),
    importsOf(db, ids),
    options.statistics ? Promise.all(rows.map((row) => statisticsOf(context, row))) : undefined,
  ]);
  const ownerNames = [...page.chains.values()]
    .map((chain) => chain[0])
    .filter((namespace) => namespace?.kind === 'user')
    .map((namespace) => namespace?.full_path ?? '');
  // The caller's (inherited) level in the page's namespaces and in the groups they are shared with.
  const [owners, groupLevels] = await Promise.all([
    usersNamed(db, ownerNames),
    user
      ? groupLevelsOf(db, user.id, [
          ...new Set([...rows.map((row) => row.namespace_id), ...shares.map((share) => share.group_id)]),
        ])
      : new Map<number, number>(),
  ]);
  const sharesByProject = new Map<number, ShareRow[]>();
  for (const share of shares)
    sharesByProject.set(share.project_id, [...(sharesByProject.get(share.project_id) ?? []), share]);
  const importOf = new Map(imports.map((row) => [row.project_id, row]));
  const today = todayIso();

  return rows.map((row, index) => {
    const chain = page.chains.get(row.namespace_id) ?? [];
    const namespace = namespaceOf(chain, options.origin);
    const projectShares = sharesByProject.get(row.id) ?? [];
    const projectLevel = memberLevels.get(row.id);
    const groupLevel = namespace.kind === 'group' ? groupLevels.get(namespace.id) : undefined;
    const shareLevel = Math.max(
      0,
      ...projectShares
        .filter((share) => membershipCounts(share.expires_at, today))
        .map((share) => Math.min(groupLevels.get(share.group_id) ?? 0, share.group_access)),
    );
    const ownNamespaceLevel = namespace.kind === 'user' ? (groupLevels.get(namespace.id) ?? 0) : 0;
    const level = user?.isAdmin
      ? 60
      : Math.max(projectLevel ?? 0, groupLevel ?? 0, shareLevel, ownNamespaceLevel);
    const owner = namespace.kind === 'user' ? owners.get(namespace.full_path) : undefined;
    const imported = importOf.get(row.id);
    const api = `${options.origin}/api/v4/projects/${row.id}`;
    const issuesEnabled = row.issues_enabled === 1;
    const mergeRequestsEnabled = row.merge_requests_enabled === 1;
    const links: Schemas['ProjectLinks'] = {
      self: api,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
    };
    if (issuesEnabled) links.issues = `${api}/issues`;
    if (mergeRequestsEnabled) links.merge_requests = `${api}/merge_requests`;
    // Built by assignment, not by spreading optional parts into one literal: V8 made such a literal of 60
    // properties ten times slower to build, a cost every project of every page paid.
    const full: ProjectFull = Object.assign(summaryOf(row, page, options.origin), {
      visibility: row.visibility as ProjectFull['visibility'],
      issues_enabled: issuesEnabled,
      merge_requests_enabled: mergeRequestsEnabled,
      jobs_enabled: row.jobs_enabled === 1,
      wiki_enabled: row.wiki_enabled === 1,
      snippets_enabled: row.snippets_enabled === 1,
      can_create_merge_request_in: level >= 30,
      resolve_outdated_diff_discussions: row.resolve_outdated_diff_discussions === 1,
      container_registry_enabled: row.container_registry_enabled === 1,
      creator_id: row.creator_id,
      namespace,
      import_status: imported?.status ?? 'none',
      import_error: imported?.import_error ?? null,
      archived: row.archived === 1,
      shared_runners_enabled: row.shared_runners_enabled === 1,
      ci_default_git_depth: row.ci_default_git_depth,
      public_jobs: row.public_jobs === 1,
      shared_with_groups: projectShares.map((share) => ({
        group_id: share.group_id,
        group_name: share.group_name,
        group_full_path: share.group_full_path,
        group_access_level: share.group_access,
        expires_at: share.expires_at,
      })),
      only_allow_merge_if_pipeline_succeeds: row.only_allow_merge_if_pipeline_succeeds === 1,
      allow_merge_on_skipped_pipeline: row.allow_merge_on_skipped_pipeline === 1,
      only_allow_merge_if_all_discussions_are_resolved:
        row.only_allow_merge_if_all_discussions_are_resolved === 1,
      remove_source_branch_after_merge: row.remove_source_branch_after_merge === 1,
      request_access_enabled: row.request_access_enabled === 1,
      merge_method: row.merge_method as ProjectFull['merge_method'],
      autoclose_referenced_issues: row.autoclose_referenced_issues === 1,
      suggestion_commit_message: row.suggestion_commit_message,
      // A date: the day the project was marked for deletion (the deprecated field carries the same day).
      marked_for_deletion_at: row.marked_for_deletion_at?.slice(0, 10) ?? null,
      marked_for_deletion_on: row.marked_for_deletion_at?.slice(0, 10) ?? null,
      _links: links,
      auto_devops_enabled: row.auto_devops_enabled === 1,
      auto_devops_deploy_strategy: row.auto_devops_deploy_strategy,
      mirror: false,
      external_authorization_classification_label: null,
      packages_enabled: row.packages_enabled === 1,
      service_desk_enabled: false,
      service_desk_address: null,
    });
    if (owner) full.owner = { id: owner.id, name: owner.name, created_at: owner.created_at };
    if (issuesEnabled) full.open_issues_count = 0;
    if (user)
      // The owner of a personal namespace is a member of its projects in GitLab (Projects::CreateService adds
      // them): their access shows as the project's.
      full.permissions = {
        project_access: accessOf(Math.max(projectLevel ?? 0, ownNamespaceLevel) || undefined),
        group_access: accessOf(groupLevel),
      };
    if (user?.isAdmin) full.repository_storage = row.repository_storage;
    const stats = statistics?.[index];
    if (stats) full.statistics = stats;
    if (options.sharedProjectFields) Object.assign(full, sharedProjectFieldsOf(row, page));
    return full;
  });
}

/** The fields the shared-projects list adds (document 2, section 2), with GitLab's defaults. */
function sharedProjectFieldsOf(row: ProjectRow, page: PageContext): Partial<ProjectFull> {
  const feature = (enabled: boolean) =>
    (enabled ? 'enabled' : 'disabled') as Schemas['ProjectFeatureAccessLevel'];
  return {
    empty_repo: page.facts.get(row.id)?.empty ?? true,
    container_expiration_policy: {
      cadence: '1d',
      enabled: false,
      keep_n: 10,
      older_than: '90d',
      name_regex: '.*',
      name_regex_keep: null,
      next_run_at: null,
    },
    issues_access_level: feature(row.issues_enabled === 1),
    repository_access_level: 'enabled',
    merge_requests_access_level: feature(row.merge_requests_enabled === 1),
    forking_access_level: 'enabled',
    wiki_access_level: feature(row.wiki_enabled === 1),
    builds_access_level: feature(row.jobs_enabled === 1),
    snippets_access_level: feature(row.snippets_enabled === 1),
    pages_access_level: row.visibility === 'public' ? 'enabled' : 'private',
    build_timeout: row.build_timeout,
    auto_cancel_pending_pipelines: row.auto_cancel_pending_pipelines,
    build_coverage_regex: null,
    ci_config_path: row.ci_config_path,
    printing_merge_request_link_enabled: row.printing_merge_request_link_enabled === 1,
    emails_disabled: row.emails_disabled === 1,
    lfs_enabled: row.lfs_enabled === 1,
  };
}

/** One project in the full form (archive, unarchive and restore answer with it). */
export async function presentFullProject(
  context: ServerContext,
  caller: Caller,
  row: ProjectRow,
  origin: string,
): Promise<ProjectFull> {
  const [full] = await presentFullProjects(context, caller, [row], { origin });
  if (!full) throw new Error('presenting a project gave nothing');
  return full;
}
