// Routes of the groups area: the group list, a group's subgroups, a group's details and its projects;
// creating, changing and deleting groups (their avatars are served by the avatars module).
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, QueryParams, ResponseBody } from '../../core/http/types.js';
import { avatarFileOf } from '../avatars/index.js';
import { type DeleteGroupQuery, deleteGroup } from './deletion.js';
import { groupDetailProjects, respondWithGroupProjects, respondWithGroupSharedProjects } from './projects.js';
import { getGroup, type ListGroupsQuery, listGroups, listSubgroups } from './service.js';
import { type CreateGroupBody, createGroup, type EditGroupBody, editGroup } from './write.js';

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

  /** A group's details as the caller reads them (`GET /groups/:id`, and the answer of a write). */
  const details = (caller: Caller, idOrPath: string, query: QueryParams<'getGroup'>, origin: string) =>
    getGroup(context, caller, idOrPath, query, origin, (group) =>
      groupDetailProjects(context, caller, group.id, origin),
    );
  handlers.getGroup = async (req, res) => {
    const query = req.query as QueryParams<'getGroup'>;
    const body: ResponseBody<'getGroup', 200> = await details(
      callerOf(res),
      pathParam(req, 'id'),
      query,
      originOf(req),
    );
    res.json(body);
  };
  handlers.createGroup = async (req, res) => {
    const caller = callerOf(res);
    const id = await createGroup(context, caller, req.body as CreateGroupBody, avatarFileOf(req));
    const body: ResponseBody<'createGroup', 201> = await details(caller, String(id), {}, originOf(req));
    res.status(201).json(body);
  };
  handlers.editGroup = async (req, res) => {
    const caller = callerOf(res);
    const body = req.body as EditGroupBody | undefined;
    const id = await editGroup(context, caller, pathParam(req, 'id'), body, avatarFileOf(req));
    const answer: ResponseBody<'editGroup', 200> = await details(caller, String(id), {}, originOf(req));
    res.json(answer);
  };
  handlers.deleteGroup = async (req, res) => {
    await deleteGroup(context, callerOf(res), pathParam(req, 'id'), req.query as DeleteGroupQuery);
    const body: ResponseBody<'deleteGroup', 202> = { message: '202 Accepted' };
    res.status(202).json(body);
  };

  handlers.listGroupProjects = async (req, res) => {
    await respondWithGroupProjects(context, callerOf(res), pathParam(req, 'id'), req, res);
  };

  handlers.listGroupSharedProjects = async (req, res) => {
    await respondWithGroupSharedProjects(context, callerOf(res), pathParam(req, 'id'), req, res);
  };

  return handlers;
}
