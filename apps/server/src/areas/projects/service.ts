// Rules of the project lists, starrers and languages (document 2, 4.2; GitLab's lib/api/projects.rb and
// ProjectsFinder). Anonymous callers see public projects in the summary form; signed-in callers see public,
// internal and their own projects in the full form (summary with `simple=true`); administrators see all.
// `statistics`, `with_custom_attributes` and `custom_attributes[key]=value` are for administrators: others'
// are ignored, as GitLab ignores them.

import { type ProjectRow, resolveProject } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { GitError } from '../../core/git/repository.js';
import { ApiError, invalidParameter, notFound } from '../../core/http/errors.js';
import type { PageRequest } from '../../core/http/pagination.js';
import type { Schemas } from '../../core/http/types.js';
import type { Page } from '../../core/store/paging.js';
import { languageShares } from './languages.js';
import {
  type ProjectFull,
  type ProjectSummary,
  presentFullProjects,
  presentProjectSummaries,
} from './present.js';
import {
  findUserByIdOrUsername,
  type ProjectFilters,
  type ProjectListScope,
  type ProjectOrder,
  projectsWithStaleLanguages,
  readProjectKeysetPage,
  readProjectPage,
  readStarrerPage,
  storedLanguages,
  storeLanguages,
  type Viewer,
} from './store.js';

/** GitLab's offset pagination limit for projects: `page × per_page` above it is refused. */
export const OFFSET_PAGINATION_LIMIT = 50_000;

/** A project list request, read from the query by the routes (routes.ts `projectListRequestOf`). */
export interface ProjectListRequest {
  filters: ProjectFilters;
  order: ProjectOrder;
  /** Summary form (`simple=true`). */
  simple: boolean;
  statistics: boolean;
  withCustomAttributes: boolean;
  /** `pagination=keyset`: pages by ID, with `id_after`/`id_before` as the cursor. */
  keyset: boolean;
  page: PageRequest;
  /** Add the shared-projects list's fields to the full form (`GET /groups/:id/projects/shared`). */
  sharedProjectFields?: boolean;
  /** The full form for anonymous callers too (the deprecated project arrays of `GET /groups/:id`). */
  alwaysFull?: boolean;
}

/** One presented page, and what its pagination headers need. */
export interface ProjectListPage {
  projects: (ProjectFull | ProjectSummary)[];
  paging:
    | { kind: 'offset'; total: number }
    /** The cursor of the next page (`id_after` ascending, `id_before` descending), absent on the last. */
    | { kind: 'keyset'; next?: { name: 'id_after' | 'id_before'; value: number } };
}

/**
 * The cursor of the page after a keyset page ordered by ID: its last ID as `id_after` (ascending) or
 * `id_before` (descending); none when no more projects follow.
 */
export function nextKeysetCursor(
  page: readonly { id: number }[],
  more: boolean,
  sort: 'asc' | 'desc',
): { name: 'id_after' | 'id_before'; value: number } | undefined {
  const last = page.at(-1);
  if (!more || !last) return undefined;
  return { name: sort === 'asc' ? 'id_after' : 'id_before', value: last.id };
}

export function viewerOf(caller: Caller): Viewer {
  const user = caller.user;
  return user ? { kind: 'user', userId: user.id, isAdmin: user.isAdmin } : { kind: 'anonymous' };
}

/**
 * One page of the projects of `scope` that the caller may see and the request's filters keep, presented in
 * the form the caller gets. Offset pages stop at 50,000 records (405, GitLab's answer); keyset pages need
 * `order_by=id` (405 otherwise) and carry no totals.
 */
export async function listProjectsOfScope(
  context: ServerContext,
  caller: Caller,
  scope: ProjectListScope,
  request: ProjectListRequest,
  origin: string,
): Promise<ProjectListPage> {
  const isAdmin = caller.user?.isAdmin === true;
  const filters: ProjectFilters = {
    ...request.filters,
    customAttributes: isAdmin ? request.filters.customAttributes : undefined,
  };
  // The filter reads stored languages: those of repositories changed since their detection are detected first.
  if (filters.withProgrammingLanguage !== undefined) await detectStaleLanguages(context);
  const viewer = viewerOf(caller);
  let rows: ProjectRow[];
  let paging: ProjectListPage['paging'];
  if (request.keyset) {
    if (request.order.orderBy !== 'id')
      throw new ApiError(405, { message: 'Keyset pagination is not yet available for this type of request' });
    const { items, more } = await readProjectKeysetPage(
      context.db,
      viewer,
      scope,
      filters,
      request.order.sort,
      request.page.perPage,
    );
    rows = items;
    const next = nextKeysetCursor(items, more, request.order.sort);
    paging = { kind: 'keyset', ...(next ? { next } : {}) };
  } else {
    if (request.page.page * request.page.perPage > OFFSET_PAGINATION_LIMIT)
      throw new ApiError(405, {
        message:
          `Offset pagination has a maximum allowed offset of ${OFFSET_PAGINATION_LIMIT} for requests that return ` +
          'objects of type Project. Remaining records can be retrieved using keyset pagination.',
      });
    const page: Page<ProjectRow> = await readProjectPage(
      context.db,
      viewer,
      scope,
      filters,
      request.order,
      request.page,
    );
    rows = page.items;
    paging = { kind: 'offset', total: page.total };
  }
  const options = {
    origin,
    statistics: isAdmin && request.statistics,
    customAttributes: isAdmin && request.withCustomAttributes,
    sharedProjectFields: request.sharedProjectFields,
  };
  const projects =
    (!caller.user && !request.alwaysFull) || request.simple
      ? await presentProjectSummaries(context, rows, options)
      : await presentFullProjects(context, caller, rows, options);
  return { projects, paging };
}

/** `GET /users/:user_id/projects`: the projects of the user's personal namespace (404 for an unknown user). */
export async function listUserProjects(
  context: ServerContext,
  caller: Caller,
  userIdOrUsername: string,
  request: ProjectListRequest,
  origin: string,
): Promise<ProjectListPage> {
  const user = await findUserByIdOrUsername(context.db, userIdOrUsername);
  if (!user) throw notFound('User');
  return listProjectsOfScope(context, caller, { kind: 'userNamespace', userId: user.id }, request, origin);
}

/** `GET /projects/:id/starrers`: who starred a project the caller may see, newest first. */
export async function listProjectStarrers(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  search: string | undefined,
  page: PageRequest,
  origin: string,
): Promise<Page<Schemas['ProjectStarrer']>> {
  const access = await resolveProject(context.db, caller, idOrPath);
  const { items, total } = await readStarrerPage(context.db, access.project.id, search, page);
  return {
    total,
    items: items.map((row) => ({
      starred_since: row.starred_since,
      user: {
        id: row.id,
        username: row.username,
        name: row.name,
        state: row.state,
        avatar_url: row.avatar_url,
        web_url: `${origin}/${row.username}`,
      },
    })),
  };
}

/**
 * The languages of a project's repository at its default branch, detected again when the repository has
 * changed since the last detection (its generation) and stored, so `with_programming_language` can filter.
 */
export async function detectLanguages(
  context: ServerContext,
  project: ProjectRow,
): Promise<{ name: string; share: number }[]> {
  if (project.languages_generation === project.repository_generation)
    return storedLanguages(context.db, project.id);
  let files: { path: string; size: number }[] = [];
  try {
    files =
      (await repositoryOf(context, project).listTreeFiles(project.default_branch, { recursive: true })) ?? [];
  } catch (error) {
    // A repository git cannot read has no languages (yet); it is detected again once it changes.
    if (!(error instanceof GitError)) throw error;
  }
  const languages = languageShares(files);
  await storeLanguages(context.db, project.id, project.repository_generation, languages);
  return languages;
}

/** How many projects detectStaleLanguages reads at a time. */
const STALE_LANGUAGES_BATCH = 50;

/**
 * Detects the languages of every project whose repository changed since their last detection (or that was
 * never detected), so that `with_programming_language` finds them: languages are detected when read, not
 * per push, and a burst of pushes to one repository costs one detection here.
 */
export async function detectStaleLanguages(context: ServerContext): Promise<void> {
  for (;;) {
    const stale = await projectsWithStaleLanguages(context.db, STALE_LANGUAGES_BATCH);
    for (const project of stale) await detectLanguages(context, project);
    if (stale.length < STALE_LANGUAGES_BATCH) return;
  }
}

/** `GET /projects/:id/languages`: language name → percentage; `{}` for an empty repository. */
export async function getProjectLanguages(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
): Promise<Record<string, number>> {
  const access = await resolveProject(context.db, caller, idOrPath);
  const languages = await detectLanguages(context, access.project);
  return Object.fromEntries(languages.map((language) => [language.name, language.share]));
}

/** Reads `last_activity_after`/`before` as a stored timestamp (UTC `toISOString`), or a 400. */
export function timestampParameter(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw invalidParameter(name);
  return new Date(time).toISOString();
}
