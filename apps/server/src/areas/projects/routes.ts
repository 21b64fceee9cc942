// Routes of the project lists, of one project (create, read, edit), starrers and languages: read the request,
// call the service, send.
import type { Response } from 'express';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { toBoolean } from '../../core/http/booleans.js';
import { invalidParameter } from '../../core/http/errors.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { optionalQueryString, originOf, pathParam, splitUrl } from '../../core/http/request.js';
import type { ApiRequest, ResponseBody } from '../../core/http/types.js';
import { avatarFileOf } from '../avatars/index.js';
import {
  type CreateProjectRequest,
  createProject,
  type EditProjectRequest,
  editProject,
  readProject,
} from './entry.js';
import { presentFullProject } from './present.js';
import {
  getProjectLanguages,
  listProjectStarrers,
  listProjectsOfScope,
  listUserProjects,
  type ProjectListPage,
  type ProjectListRequest,
  timestampParameter,
} from './service.js';
import { PROJECT_ORDERS, type ProjectFilters, type ProjectListScope, type ProjectOrderBy } from './store.js';

function booleanQuery(req: ApiRequest, name: string): boolean | undefined {
  return toBoolean(req.query[name]);
}

function integerQuery(req: ApiRequest, name: string): number | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw invalidParameter(name);
  return number;
}

/** `custom_attributes[key]=value` pairs (a deepObject: the extended query parser makes it an object). */
function customAttributesQuery(req: ApiRequest): Record<string, string> | undefined {
  const value = req.query.custom_attributes;
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidParameter('custom_attributes');
  const pairs: Record<string, string> = {};
  for (const [key, text] of Object.entries(value)) {
    if (typeof text !== 'string') throw invalidParameter('custom_attributes');
    pairs[key] = text;
  }
  return pairs;
}

/**
 * Reads the project-list query parameters (those of `GET /projects`; a list whose operation has fewer, such
 * as the group lists, simply never receives the others: the validator refuses unknown parameters).
 */
export function projectListRequestOf(req: ApiRequest): ProjectListRequest {
  const orderBy = optionalQueryString(req, 'order_by') ?? 'created_at';
  if (!(PROJECT_ORDERS as readonly string[]).includes(orderBy)) throw invalidParameter('order_by');
  const sort = optionalQueryString(req, 'sort') ?? 'desc';
  if (sort !== 'asc' && sort !== 'desc') throw invalidParameter('sort');
  const visibility = optionalQueryString(req, 'visibility');
  if (
    visibility !== undefined &&
    visibility !== 'public' &&
    visibility !== 'internal' &&
    visibility !== 'private'
  )
    throw invalidParameter('visibility');
  const filters: ProjectFilters = {
    archived: booleanQuery(req, 'archived'),
    visibility,
    search: optionalQueryString(req, 'search'),
    searchNamespaces: booleanQuery(req, 'search_namespaces'),
    owned: booleanQuery(req, 'owned'),
    membership: booleanQuery(req, 'membership'),
    starred: booleanQuery(req, 'starred'),
    withIssuesEnabled: booleanQuery(req, 'with_issues_enabled'),
    withMergeRequestsEnabled: booleanQuery(req, 'with_merge_requests_enabled'),
    withProgrammingLanguage: optionalQueryString(req, 'with_programming_language'),
    minAccessLevel: integerQuery(req, 'min_access_level'),
    idAfter: integerQuery(req, 'id_after'),
    idBefore: integerQuery(req, 'id_before'),
    lastActivityAfter: timestampParameter(
      'last_activity_after',
      optionalQueryString(req, 'last_activity_after'),
    ),
    lastActivityBefore: timestampParameter(
      'last_activity_before',
      optionalQueryString(req, 'last_activity_before'),
    ),
    customAttributes: customAttributesQuery(req),
  };
  return {
    filters,
    order: { orderBy: orderBy as ProjectOrderBy, sort },
    simple: booleanQuery(req, 'simple') === true,
    statistics: booleanQuery(req, 'statistics') === true,
    withCustomAttributes: booleanQuery(req, 'with_custom_attributes') === true,
    keyset: optionalQueryString(req, 'pagination') === 'keyset',
    page: readPage(req),
  };
}

/**
 * Keyset pagination's `Link: <…>; rel="next"`: this request's URL with the cursor set to the page's last
 * ID, and no `page` (GitLab's form). No X-Total headers.
 */
function setKeysetHeaders(
  req: ApiRequest,
  res: Response,
  next: { name: string; value: number } | undefined,
): void {
  res.setHeader('X-Per-Page', String(readPage(req).perPage));
  if (!next) return;
  const { path, search: sent } = splitUrl(req.originalUrl);
  const query = new URLSearchParams(sent);
  for (const name of ['page', 'private_token', 'id_after', 'id_before'])
    if (name !== next.name) query.delete(name);
  query.set(next.name, String(next.value));
  // `%20`, not URLSearchParams' `+`, for a space: the validator refuses a `+` in a query value.
  const search = query.toString().replace(/\+/g, '%20');
  res.setHeader('Link', `<${originOf(req)}${path}?${search}>; rel="next"`);
}

/** Sends a page of projects with its pagination headers (offset: the X-* headers; keyset: `Link` next). */
export function sendProjectListPage(req: ApiRequest, res: Response, page: ProjectListPage): void {
  if (page.paging.kind === 'offset') setPaginationHeaders(req, res, readPage(req), page.paging.total);
  else setKeysetHeaders(req, res, page.paging.next);
  const body: ResponseBody<'listProjects', 200> = page.projects;
  res.json(body);
}

/**
 * Answers a project-list request for `scope` (engineer B's group lists use this): reads the query, lists the
 * page the caller may see and sends it with its headers.
 */
export async function respondWithProjectList(
  context: ServerContext,
  caller: Caller,
  scope: ProjectListScope,
  req: ApiRequest,
  res: Response,
): Promise<void> {
  const page = await listProjectsOfScope(context, caller, scope, projectListRequestOf(req), originOf(req));
  sendProjectListPage(req, res, page);
}

export function projectsHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listProjects = async (req, res) => {
    await respondWithProjectList(context, callerOf(res), { kind: 'all' }, req, res);
  };

  handlers.createProject = async (req, res) => {
    const caller = callerOf(res);
    const project = await createProject(context, caller, req.body as CreateProjectRequest, avatarFileOf(req));
    const body: ResponseBody<'createProject', 201> = await presentFullProject(
      context,
      caller,
      project,
      originOf(req),
    );
    res.status(201).json(body);
  };

  handlers.getProject = async (req, res) => {
    const body: ResponseBody<'getProject', 200> = await readProject(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      {
        statistics: booleanQuery(req, 'statistics') === true,
        license: booleanQuery(req, 'license') === true,
        withCustomAttributes: booleanQuery(req, 'with_custom_attributes') === true,
      },
      originOf(req),
    );
    res.json(body);
  };

  handlers.editProject = async (req, res) => {
    const caller = callerOf(res);
    const access = await editProject(
      context,
      caller,
      pathParam(req, 'id'),
      req.body as EditProjectRequest,
      avatarFileOf(req),
    );
    const body: ResponseBody<'editProject', 200> = await presentFullProject(
      context,
      caller,
      access.project,
      originOf(req),
    );
    res.json(body);
  };

  handlers.listUserProjects = async (req, res) => {
    const page = await listUserProjects(
      context,
      callerOf(res),
      pathParam(req, 'user_id'),
      projectListRequestOf(req),
      originOf(req),
    );
    sendProjectListPage(req, res, page);
  };

  handlers.listProjectStarrers = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listProjectStarrers(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      optionalQueryString(req, 'search'),
      page,
      originOf(req),
    );
    const body: ResponseBody<'listProjectStarrers', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.getProjectLanguages = async (req, res) => {
    const body: ResponseBody<'getProjectLanguages', 200> = await getProjectLanguages(
      context,
      callerOf(res),
      pathParam(req, 'id'),
    );
    res.json(body);
  };

  return handlers;
}
