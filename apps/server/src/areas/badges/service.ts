// Badges of projects and groups (document 2, section 4.9; GitLab's lib/api/badges.rb). Reads need read
// access to the project or group; writes need a maintainer or above. A project's list and reads include the
// badges of its group and the group's ancestors (`kind: group`), which only the group's endpoints change.

import {
  AccessLevel,
  canSee,
  type GroupAccess,
  groupChain,
  type ProjectAccess,
  type ProjectRow,
  projectAccessLevel,
  projectFullPath,
  resolveGroup,
  resolveGroupForSignedIn,
  resolveProject,
  resolveProjectForSignedIn,
} from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { GitError } from '../../core/git/repository.js';
import { forbidden, notFound } from '../../core/http/errors.js';
import type { QueryParams, RequestBody } from '../../core/http/types.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { type Badge, type BadgePreview, presentBadge, presentPreview } from './present.js';
import { checkBadgeFields, type PlaceholderValues } from './rules.js';
import {
  type BadgeRow,
  type BadgeScope,
  deleteBadge,
  findBadge,
  insertBadge,
  listBadges,
  projectsOfGroupByCreation,
  updateBadge,
} from './store.js';

type AddBadgeRequest = RequestBody<'addProjectBadge'> | RequestBody<'addGroupBadge'>;
type UpdateBadgeRequest = RequestBody<'updateProjectBadge'> | RequestBody<'updateGroupBadge'>;
/** The render query (the same for projects and groups). */
export type RenderRequest = QueryParams<'renderProjectBadge'>;
/** Whose badges an operation is about: GitLab's badge `source`. */
export type SourceKind = 'Project' | 'Group';

const badgeNotFound = () => notFound('Badge');

/** Where a request's badges live and whose values their placeholders take. */
interface Source {
  /** The badges the source sees. */
  scope: BadgeScope;
  /** Who a new badge belongs to. */
  owner: { projectId: number } | { groupId: number };
  /** The placeholder values (read lazily: git is asked only when something is presented). */
  values(): Promise<PlaceholderValues | null>;
}

/** The project's placeholder values; the commit is the default branch's head (none in an empty repository). */
async function valuesOf(
  context: ServerContext,
  project: ProjectRow,
  fullPath: string,
): Promise<PlaceholderValues> {
  let commitSha: string | null = null;
  try {
    const branch = await repositoryOf(context, project).getBranch(project.default_branch);
    commitSha = branch?.commit.id ?? null;
  } catch (error) {
    // A repository git cannot read (being moved, say) leaves `%{commit_sha}` as it is, like an empty one:
    // a badge is no reason to fail a request.
    if (!(error instanceof GitError)) throw error;
  }
  return {
    project_path: fullPath,
    project_name: project.path,
    project_id: String(project.id),
    default_branch: project.default_branch,
    commit_sha: commitSha,
  };
}

async function projectSource(context: ServerContext, access: ProjectAccess): Promise<Source> {
  const chain = await groupChain(context.db, access.project.namespace_id);
  return {
    scope: { projectId: access.project.id, groupIds: chain.map((group) => group.id) },
    owner: { projectId: access.project.id },
    values: () => valuesOf(context, access.project, projectFullPath(access)),
  };
}

/** Projects read per query while looking for the first project of a group the caller may see. */
const PROJECT_BATCH = 20;

/**
 * The group's first project by creation date among those the caller may see (GitLab's GroupProjectsFinder
 * for the current user): a badge must not show a private project's path to a reader of a public group.
 */
async function firstVisibleProject(
  context: ServerContext,
  caller: Caller,
  access: GroupAccess,
): Promise<ProjectRow | undefined> {
  // Members of the group or of an ancestor see every project in it (and administrators everything).
  const seesAll = access.accessLevel >= AccessLevel.GUEST;
  const candidatesFor = seesAll ? undefined : { userId: caller.user?.id ?? null };
  for (let offset = 0; ; offset += PROJECT_BATCH) {
    const projects = await projectsOfGroupByCreation(context.db, access.group.id, candidatesFor, {
      offset,
      limit: PROJECT_BATCH,
    });
    for (const project of projects) {
      if (seesAll || project.visibility !== 'private') return project;
      const level = await projectAccessLevel(context.db, caller, project);
      if (canSee(caller, project.visibility, level)) return project;
    }
    if (projects.length < PROJECT_BATCH) return undefined;
  }
}

function groupSource(context: ServerContext, caller: Caller, access: GroupAccess): Source {
  return {
    scope: { groupId: access.group.id },
    owner: { groupId: access.group.id },
    values: async () => {
      const project = await firstVisibleProject(context, caller, access);
      return project ? valuesOf(context, project, `${access.group.full_path}/${project.path}`) : null;
    },
  };
}

/* Resolving the project or group ---------------------------------------------------------------- */

async function sourceForRead(
  context: ServerContext,
  caller: Caller,
  kind: SourceKind,
  idOrPath: string,
): Promise<Source> {
  requireScope(caller, 'read_api');
  if (kind === 'Project') return projectSource(context, await resolveProject(context.db, caller, idOrPath));
  return groupSource(context, caller, await resolveGroup(context.db, caller, idOrPath));
}

async function sourceForWrite(
  context: ServerContext,
  caller: Caller,
  kind: SourceKind,
  idOrPath: string,
): Promise<Source> {
  if (kind === 'Project') {
    const access = await resolveProjectForSignedIn(
      context.db,
      caller,
      idOrPath,
      'api',
      AccessLevel.MAINTAINER,
    );
    return projectSource(context, access);
  }
  const access = await resolveGroupForSignedIn(context.db, caller, idOrPath, 'api', AccessLevel.MAINTAINER);
  return groupSource(context, caller, access);
}

async function requireBadge(context: ServerContext, source: Source, badgeId: number): Promise<BadgeRow> {
  // A number beyond any ID (the validator takes `1e30` as an integer) names no badge.
  const row = Number.isSafeInteger(badgeId) ? await findBadge(context.db, source.scope, badgeId) : undefined;
  if (!row) throw badgeNotFound();
  return row;
}

/** A group badge shown in a project's list is changed only through its group (GitLab's rule). */
function requireOwnBadge(source: Source, row: BadgeRow, action: 'update' | 'delete'): void {
  if ('projectId' in source.owner && row.project_id !== source.owner.projectId)
    throw forbidden(`To ${action} a Group badge please use the Group endpoint`);
}

/* The operations, for projects and groups alike --------------------------------------------------- */

export async function listSourceBadges(
  context: ServerContext,
  caller: Caller,
  kind: SourceKind,
  idOrPath: string,
  name: string | undefined,
  window: PageWindow,
): Promise<Page<Badge>> {
  const source = await sourceForRead(context, caller, kind, idOrPath);
  const page = await listBadges(context.db, source.scope, name, window);
  if (page.items.length === 0) return { items: [], total: page.total };
  const values = await source.values();
  return { items: page.items.map((row) => presentBadge(row, values)), total: page.total };
}

export async function getSourceBadge(
  context: ServerContext,
  caller: Caller,
  kind: SourceKind,
  idOrPath: string,
  badgeId: number,
): Promise<Badge> {
  const source = await sourceForRead(context, caller, kind, idOrPath);
  return presentBadge(await requireBadge(context, source, badgeId), await source.values());
}

export async function addSourceBadge(
  context: ServerContext,
  caller: Caller,
  kind: SourceKind,
  idOrPath: string,
  body: AddBadgeRequest,
): Promise<Badge> {
  const source = await sourceForWrite(context, caller, kind, idOrPath);
  checkBadgeFields(body);
  const row = await insertBadge(context.db, {
    owner: source.owner,
    name: body.name ?? null,
    linkUrl: body.link_url,
    imageUrl: body.image_url,
  });
  return presentBadge(row, await source.values());
}

export async function updateSourceBadge(
  context: ServerContext,
  caller: Caller,
  kind: SourceKind,
  idOrPath: string,
  badgeId: number,
  body: UpdateBadgeRequest | undefined,
): Promise<Badge> {
  const source = await sourceForWrite(context, caller, kind, idOrPath);
  const current = await requireBadge(context, source, badgeId);
  requireOwnBadge(source, current, 'update');
  const changes = {
    ...(body?.name === undefined ? {} : { name: body.name }),
    ...(body?.link_url === undefined ? {} : { link_url: body.link_url }),
    ...(body?.image_url === undefined ? {} : { image_url: body.image_url }),
  };
  checkBadgeFields(changes);
  // Nothing to change (every field is optional) answers the badge as it is, as GitLab does.
  const row = Object.keys(changes).length === 0 ? current : await updateBadge(context.db, badgeId, changes);
  if (!row) throw badgeNotFound();
  return presentBadge(row, await source.values());
}

export async function deleteSourceBadge(
  context: ServerContext,
  caller: Caller,
  kind: SourceKind,
  idOrPath: string,
  badgeId: number,
): Promise<void> {
  const source = await sourceForWrite(context, caller, kind, idOrPath);
  const current = await requireBadge(context, source, badgeId);
  requireOwnBadge(source, current, 'delete');
  await deleteBadge(context.db, badgeId);
}

/** The preview needs a signed-in caller (GitLab authenticates it) who may read the project or group. */
export async function renderSourceBadge(
  context: ServerContext,
  caller: Caller,
  kind: SourceKind,
  idOrPath: string,
  query: RenderRequest,
): Promise<BadgePreview> {
  requireUser(caller);
  requireScope(caller, 'read_api');
  const source = await sourceForRead(context, caller, kind, idOrPath);
  checkBadgeFields(query);
  return presentPreview(query, await source.values());
}
