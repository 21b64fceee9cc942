// Routes of the SCIM API (document 2, section 4.15), under /api/scim/v2: the group's bearer token, then the
// service; every answer is `application/scim+json`.
import type { Response } from 'express';
import type { ServerContext } from '../../core/context.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { pathParam } from '../../core/http/request.js';
import type { ApiRequest, QueryParams, RequestBody } from '../../core/http/types.js';
import { SCIM_MEDIA_TYPE } from './errors.js';
import { presentScimUser, presentScimUserList } from './present.js';
import {
  authorizeScimGroup,
  deprovisionScimIdentity,
  getScimIdentity,
  listScimIdentities,
  provisionScimUser,
  type ScimGroup,
  updateScimIdentity,
} from './service.js';

/** The token of `Authorization: Bearer <token>` (the scheme in any case, as RFC 9110 allows). */
export function bearerToken(req: ApiRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('Authorization') ?? '');
  return match?.[1];
}

function sendScim(res: Response, status: number, body: unknown): void {
  res.status(status).type(SCIM_MEDIA_TYPE).json(body);
}

export function scimHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};
  const groupOf = (req: ApiRequest): Promise<ScimGroup> =>
    authorizeScimGroup(context, pathParam(req, 'group_path'), bearerToken(req));

  handlers.listScimUsers = async (req, res) => {
    const group = await groupOf(req);
    const query = req.query as QueryParams<'listScimUsers'>;
    const page = await listScimIdentities(context, group, {
      filter: query.filter,
      startIndex: query.startIndex,
      count: query.count,
    });
    sendScim(res, 200, presentScimUserList(page.items, page.total, page.itemsPerPage, page.startIndex));
  };

  handlers.createScimUser = async (req, res) => {
    const group = await groupOf(req);
    const identity = await provisionScimUser(context, group, req.body as RequestBody<'createScimUser'>);
    sendScim(res, 201, presentScimUser(identity));
  };

  handlers.getScimUser = async (req, res) => {
    const group = await groupOf(req);
    sendScim(res, 200, presentScimUser(await getScimIdentity(context, group, pathParam(req, 'id'))));
  };

  handlers.updateScimUser = async (req, res) => {
    const group = await groupOf(req);
    const body = req.body as RequestBody<'updateScimUser'>;
    await updateScimIdentity(context, group, pathParam(req, 'id'), body.Operations);
    res.status(204).end();
  };

  handlers.deleteScimUser = async (req, res) => {
    const group = await groupOf(req);
    await deprovisionScimIdentity(context, group, pathParam(req, 'id'));
    res.status(204).end();
  };

  return handlers;
}
