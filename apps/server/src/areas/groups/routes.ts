// Routes of the groups area: the group list, a group's subgroups, a group's details and its projects;
// creating, changing and deleting groups; and, outside the API, the groups' avatars.
import { type Response, Router } from 'express';
import { resolveGroup } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { authenticate, callerOf } from '../../core/http/auth.js';
import { notFound } from '../../core/http/errors.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, QueryParams, ResponseBody } from '../../core/http/types.js';
import { avatarDirectory, type UploadedImage } from './avatar.js';
import { type DeleteGroupQuery, deleteGroup } from './deletion.js';
import { groupDetailProjects, respondWithGroupProjects, respondWithGroupSharedProjects } from './projects.js';
import { getGroup, type ListGroupsQuery, listGroups, listSubgroups } from './service.js';
import { type CreateGroupBody, createGroup, type EditGroupBody, editGroup } from './write.js';

/** The `avatar` file part of a multipart request (core/http/multipart.ts keeps it in `req.files`). */
function avatarFile(req: ApiRequest): UploadedImage | undefined {
  const files = (req as ApiRequest & { files?: (UploadedImage & { fieldname: string })[] }).files;
  return Array.isArray(files) ? files.find((file) => file.fieldname === 'avatar') : undefined;
}

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
    const id = await createGroup(context, caller, req.body as CreateGroupBody, avatarFile(req));
    const body: ResponseBody<'createGroup', 201> = await details(caller, String(id), {}, originOf(req));
    res.status(201).json(body);
  };
  handlers.editGroup = async (req, res) => {
    const caller = callerOf(res);
    const body = req.body as EditGroupBody | undefined;
    const id = await editGroup(context, caller, pathParam(req, 'id'), body, avatarFile(req));
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

/**
 * The groups' avatars, on the server's root as GitLab serves them (`avatar_url`): to whoever may see the
 * group (a token as for the API), as images only.
 */
export function groupAvatarsRouter(context: ServerContext): Router {
  const router = Router();
  router.get(
    '/uploads/-/system/group/avatar/:id/:filename',
    authenticate(context.db),
    async (req, res: Response) => {
      const id = String(req.params.id);
      if (!/^\d+$/.test(id)) throw notFound();
      const { group } = await resolveGroup(context.db, callerOf(res), id);
      const filename = String(req.params.filename);
      if (!group.avatar || group.avatar !== filename) throw notFound();
      const headers = { 'X-Content-Type-Options': 'nosniff', 'Content-Disposition': 'inline' };
      await new Promise<void>((resolve, reject) => {
        res.sendFile(`${avatarDirectory(context.dataDir, group.id)}/${filename}`, { headers }, (error) =>
          error && !res.headersSent ? reject(error) : resolve(),
        );
      });
    },
  );
  return router;
}
