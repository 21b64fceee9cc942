// Routes of the access-requests area: the same four operations under /groups/:id and /projects/:id.
import type { Request } from 'express';
import { Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  approveAccessRequest,
  denyAccessRequest,
  listAccessRequests,
  requestAccess,
  type SourceType,
} from './service.js';

/**
 * `user_id` is an integer (the validator has checked it). One beyond the safe integers names nobody: it is
 * passed on as 0, which no user has, so the answer is the 404 of an unknown request.
 */
function userIdOf(req: Request): number {
  const value = Number(pathParam(req, 'user_id'));
  return Number.isSafeInteger(value) ? value : 0;
}

export function accessRequestsRouter(context: ServerContext): Router {
  const router = Router();

  for (const [prefix, type] of [
    ['/groups', 'Group'],
    ['/projects', 'Project'],
  ] as const satisfies readonly (readonly [string, SourceType])[]) {
    router.get(`${prefix}/:id/access_requests`, async (req, res) => {
      const page = readPage(req);
      const { items, total } = await listAccessRequests(
        context,
        callerOf(res),
        type,
        pathParam(req, 'id'),
        page,
      );
      const body: ResponseBody<'listGroupAccessRequests' | 'listProjectAccessRequests', 200> = items;
      setPaginationHeaders(req, res, page, total);
      res.json(body);
    });

    router.post(`${prefix}/:id/access_requests`, async (req, res) => {
      const body: ResponseBody<'requestGroupAccess' | 'requestProjectAccess', 201> = await requestAccess(
        context,
        callerOf(res),
        type,
        pathParam(req, 'id'),
      );
      res.status(201).json(body);
    });

    router.put(`${prefix}/:id/access_requests/:user_id/approve`, async (req, res) => {
      const body: ResponseBody<'approveGroupAccessRequest' | 'approveProjectAccessRequest', 200> =
        await approveAccessRequest(
          context,
          callerOf(res),
          type,
          pathParam(req, 'id'),
          userIdOf(req),
          req.body as RequestBody<'approveGroupAccessRequest' | 'approveProjectAccessRequest'> | undefined,
        );
      res.json(body);
    });

    router.delete(`${prefix}/:id/access_requests/:user_id`, async (req, res) => {
      await denyAccessRequest(context, callerOf(res), type, pathParam(req, 'id'), userIdOf(req));
      res.status(204).end();
    });
  }

  return router;
}
