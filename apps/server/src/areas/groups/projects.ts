// The projects of a group and the projects shared with it, read through the projects area (its scoped
// project list: one SQL page of what the caller may see, presented per page). A project shows its own
// namespace, so one shared into the group is told apart by it.
import type { Response } from 'express';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { toBoolean } from '../../core/http/booleans.js';
import { originOf } from '../../core/http/request.js';
import type { ApiRequest } from '../../core/http/types.js';
import {
  listProjectsOfScope,
  type ProjectFull,
  type ProjectListScope,
  projectListRequestOf,
  sendProjectListPage,
} from '../projects/index.js';
import type { GroupDetails } from './present.js';
import { readableGroup } from './service.js';

/** GitLab's limit of the group details' project arrays (GroupProjectsFinder::DEFAULT_PROJECTS_LIMIT). */
const DETAILS_PROJECTS_LIMIT = 100;

/**
 * `GET /groups/:id/projects`: the group's own projects (with `include_subgroups`, its subgroups' too) and,
 * unless `with_shared=false`, those shared with it. `with_security_reports` (a higher tier's filter) keeps
 * the projects with security reports in their builds: no build here produces any, so none.
 */
export async function respondWithGroupProjects(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  req: ApiRequest,
  res: Response,
): Promise<void> {
  const group = await readableGroup(context, caller, idOrPath);
  const request = projectListRequestOf(req);
  const scope: ProjectListScope = {
    kind: 'group',
    groupId: group.id,
    includeSubgroups: toBoolean(req.query.include_subgroups) === true,
    withShared: toBoolean(req.query.with_shared) !== false,
  };
  if (toBoolean(req.query.with_security_reports) === true) {
    sendProjectListPage(req, res, { projects: [], paging: { kind: 'offset', total: 0 } });
    return;
  }
  sendProjectListPage(req, res, await listProjectsOfScope(context, caller, scope, request, originOf(req)));
}

/** `GET /groups/:id/projects/shared`: the projects of other namespaces shared with the group. */
export async function respondWithGroupSharedProjects(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  req: ApiRequest,
  res: Response,
): Promise<void> {
  const group = await readableGroup(context, caller, idOrPath);
  const request = { ...projectListRequestOf(req), sharedProjectFields: true };
  const scope: ProjectListScope = { kind: 'sharedWithGroup', groupId: group.id };
  sendProjectListPage(req, res, await listProjectsOfScope(context, caller, scope, request, originOf(req)));
}

/**
 * The deprecated `projects` and `shared_projects` of the group details: the first 100 of each that the caller
 * may see, newest first, in the full form for every caller (GitLab's GroupDetail).
 */
export async function groupDetailProjects(
  context: ServerContext,
  caller: Caller,
  groupId: number,
  origin: string,
): Promise<Pick<GroupDetails, 'projects' | 'shared_projects'>> {
  const request = {
    filters: {},
    order: { orderBy: 'id', sort: 'desc' },
    simple: false,
    statistics: false,
    withCustomAttributes: false,
    keyset: false,
    page: { page: 1, perPage: DETAILS_PROJECTS_LIMIT, offset: 0, limit: DETAILS_PROJECTS_LIMIT },
    alwaysFull: true,
  } as const;
  const [own, shared] = await Promise.all([
    listProjectsOfScope(
      context,
      caller,
      { kind: 'group', groupId, includeSubgroups: false, withShared: false },
      request,
      origin,
    ),
    listProjectsOfScope(context, caller, { kind: 'sharedWithGroup', groupId }, request, origin),
  ]);
  return { projects: own.projects as ProjectFull[], shared_projects: shared.projects as ProjectFull[] };
}
