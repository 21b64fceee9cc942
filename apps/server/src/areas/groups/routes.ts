// Routes of the groups area: the group list, a group's subgroups, a group's details and its projects.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, QueryParams, ResponseBody } from '../../core/http/types.js';
import { groupDetailProjects, respondWithGroupProjects, respondWithGroupSharedProjects } from './projects.js';
import { getGroup, type ListGroupsQuery, listGroups, listSubgroups } from './service.js';

/** The list filters; the validator has checked and coerced every value (booleans, integers, enums). */
function listQueryOf(req: ApiRequest): ListGroupsQuery {
  return req.query as ListGroupsQuery;
}

export function groupsHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listGroups = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listGroups(context, callerOf(res), listQueryOf(req), page, originOf(req));
    setPaginationHeaders(req, res, page, total);
    const body: ResponseBody<'listGroups', 200> = items;
    res.json(body);
  };

  handlers.listSubgroups = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listSubgroups(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      listQueryOf(req),
      page,
      originOf(req),
    );
    setPaginationHeaders(req, res, page, total);
    const body: ResponseBody<'listSubgroups', 200> = items;
    res.json(body);
  };

  handlers.getGroup = async (req, res) => {
    const caller = callerOf(res);
    const origin = originOf(req);
    const query = req.query as QueryParams<'getGroup'>;
    const body: ResponseBody<'getGroup', 200> = await getGroup(
      context,
      caller,
      pathParam(req, 'id'),
      query,
      origin,
      (group) => groupDetailProjects(context, caller, group.id, origin),
    );
    res.json(body);
  };

  handlers.listGroupProjects = async (req, res) => {
    await respondWithGroupProjects(context, callerOf(res), pathParam(req, 'id'), req, res);
  };

  handlers.listGroupSharedProjects = async (req, res) => {
    await respondWithGroupSharedProjects(context, callerOf(res), pathParam(req, 'id'), req, res);
  };

  return handlers;
}
