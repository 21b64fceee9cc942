// Routes of the personal access tokens area: POST /users/:user_id/personal_access_tokens and
// /user/personal_access_tokens,
// GET /personal_access_tokens, GET and DELETE /personal_access_tokens/:id and /personal_access_tokens/self.
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { ApiRequest, ResponseBody } from '../../core/http/types.js';
import {
  type CreateOwnTokenBody,
  type CreateTokenBody,
  createOwnToken,
  createToken,
  getCurrentToken,
  getToken,
  type ListTokensQuery,
  listTokens,
  revokeCurrentToken,
  revokeTokenById,
} from './service.js';

/**
 * A path ID (an integer, the validator has checked it); one beyond the safe integers, or below 1, names
 * nothing: 0, which no row has, so the answer is that of an unknown ID.
 */
function idOf(req: ApiRequest, name: string): number {
  const value = Number(pathParam(req, name));
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

export function personalAccessTokensHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.createUserPersonalAccessToken = async (req, res) => {
    const body: ResponseBody<'createUserPersonalAccessToken', 201> = await createToken(
      context,
      callerOf(res),
      idOf(req, 'user_id'),
      req.body as CreateTokenBody,
    );
    res.status(201).json(body);
  };

  handlers.createCurrentUserPersonalAccessToken = async (req, res) => {
    const body: ResponseBody<'createCurrentUserPersonalAccessToken', 201> = await createOwnToken(
      context,
      callerOf(res),
      req.body as CreateOwnTokenBody,
    );
    res.status(201).json(body);
  };

  handlers.listPersonalAccessTokens = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listTokens(context, callerOf(res), req.query as ListTokensQuery, page);
    setPaginationHeaders(req, res, page, total);
    const body: ResponseBody<'listPersonalAccessTokens', 200> = items;
    res.json(body);
  };

  handlers.getPersonalAccessToken = async (req, res) => {
    const body: ResponseBody<'getPersonalAccessToken', 200> = await getToken(
      context,
      callerOf(res),
      idOf(req, 'id'),
    );
    res.json(body);
  };

  handlers.revokePersonalAccessToken = async (req, res) => {
    await revokeTokenById(context, callerOf(res), idOf(req, 'id'));
    res.status(204).end();
  };

  handlers.getCurrentPersonalAccessToken = async (_req, res) => {
    const body: ResponseBody<'getCurrentPersonalAccessToken', 200> = await getCurrentToken(
      context,
      callerOf(res),
    );
    res.json(body);
  };

  handlers.revokeCurrentPersonalAccessToken = async (_req, res) => {
    await revokeCurrentToken(context, callerOf(res));
    res.status(204).end();
  };

  return handlers;
}
