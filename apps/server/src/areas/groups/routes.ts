// Routes of the groups area: the group list, a group's subgroups, a group's details and its projects.
import { type Request, Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { originOf, pathParam } from '../../core/http/request.js';
import type { QueryParams, ResponseBody } from '../../core/http/types.js';
import { groupDetailProjects, respondWithGroupProjects, respondWithGroupSharedProjects } from './projects.js';
import { getGroup, type ListGroupsQuery, listGroups, listSubgroups } from './service.js';

/** The list filters; the validator has checked and coerced every value (booleans, integers, enums). */
function listQueryOf(req: Request): ListGroupsQuery {
  return req.query as ListGroupsQuery;
}

export function groupsRouter(context: ServerContext): Router {
  const router = Router();

  router.get('/groups', async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listGroups(context, callerOf(res), listQueryOf(req), page, originOf(req));
    setPaginationHeaders(req, res, page, total);
    const body: ResponseBody<'listGroups', 200> = items;
    res.json(body);
  });

  router.get('/groups/:id/subgroups', async (req, res) => {
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
  });

  router.get('/groups/:id', async (req, res) => {
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
  });

  router.get('/groups/:id/projects', async (req, res) => {
    await respondWithGroupProjects(context, callerOf(res), pathParam(req, 'id'), req, res);
  });

  router.get('/groups/:id/projects/shared', async (req, res) => {
    await respondWithGroupSharedProjects(context, callerOf(res), pathParam(req, 'id'), req, res);
  });

  return router;
}
