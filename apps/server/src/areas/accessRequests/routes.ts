// Routes of the access-requests area: the same four operations under /groups/:id and /projects/:id.

import type { Response } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody } from '../../core/http/types.js';
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
function userIdOf(req: ApiRequest): number {
  const value = Number(pathParam(req, 'user_id'));
  return Number.isSafeInteger(value) ? value : 0;
}

export function accessRequestsHandlers(context: ServerContext): OperationHandlers {
  const list = async (type: SourceType, req: ApiRequest, res: Response) => {
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
  };
  const request = async (type: SourceType, req: ApiRequest, res: Response) => {
    const body: ResponseBody<'requestGroupAccess' | 'requestProjectAccess', 201> = await requestAccess(
      context,
      callerOf(res),
      type,
      pathParam(req, 'id'),
    );
    res.status(201).json(body);
  };
  const approve = async (type: SourceType, req: ApiRequest, res: Response) => {
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
  };
  const deny = async (type: SourceType, req: ApiRequest, res: Response) => {
    await denyAccessRequest(context, callerOf(res), type, pathParam(req, 'id'), userIdOf(req));
    res.status(204).end();
  };

  return {
    listGroupAccessRequests: (req, res) => list('Group', req, res),
    listProjectAccessRequests: (req, res) => list('Project', req, res),
    requestGroupAccess: (req, res) => request('Group', req, res),
    requestProjectAccess: (req, res) => request('Project', req, res),
    approveGroupAccessRequest: (req, res) => approve('Group', req, res),
    approveProjectAccessRequest: (req, res) => approve('Project', req, res),
    denyGroupAccessRequest: (req, res) => deny('Group', req, res),
    denyProjectAccessRequest: (req, res) => deny('Project', req, res),
  };
}
