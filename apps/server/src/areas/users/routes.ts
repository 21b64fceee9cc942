// Routes of the users area: GET /user, GET /users and GET /users/:id; administrators' POST /users, PUT and
// DELETE /users/:id.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, QueryParams, ResponseBody } from '../../core/http/types.js';
import { type CreateUserBody, createUser, deleteUser, type UpdateUserBody, updateUser } from './accounts.js';
import { getCurrentUser, getUser, type ListUsersQuery, listUsers } from './service.js';
import { blockUser, unblockUser } from './states.js';

/**
 * `id` is an integer (the validator has checked it). One beyond the safe integers, or below 1, names
 * nobody: 0, which no user has, so the answer is the 404 of an unknown user.
 */
function userIdOf(req: ApiRequest): number {
  const value = Number(pathParam(req, 'id'));
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

export function usersHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.getCurrentUser = async (req, res) => {
    const body: ResponseBody<'getCurrentUser', 200> = await getCurrentUser(
      context,
      callerOf(res),
      originOf(req),
    );
    res.json(body);
  };

  handlers.listUsers = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listUsers(
      context,
      callerOf(res),
      req.query as ListUsersQuery,
      page,
      originOf(req),
    );
    setPaginationHeaders(req, res, page, total);
    const body: ResponseBody<'listUsers', 200> = items;
    res.json(body);
  };

  handlers.getUser = async (req, res) => {
    const body: ResponseBody<'getUser', 200> = await getUser(
      context,
      callerOf(res),
      userIdOf(req),
      originOf(req),
    );
    res.json(body);
  };

  handlers.createUser = async (req, res) => {
    const body: ResponseBody<'createUser', 201> = await createUser(
      context,
      callerOf(res),
      req.body as CreateUserBody,
      originOf(req),
    );
    res.status(201).json(body);
  };

  handlers.updateUser = async (req, res) => {
    const body: ResponseBody<'updateUser', 200> = await updateUser(
      context,
      callerOf(res),
      userIdOf(req),
      (req.body ?? {}) as UpdateUserBody,
      originOf(req),
    );
    res.json(body);
  };

  handlers.deleteUser = async (req, res) => {
    const query = req.query as QueryParams<'deleteUser'>;
    await deleteUser(context, callerOf(res), userIdOf(req), query.hard_delete === true);
    res.status(204).end();
  };

  handlers.blockUser = async (req, res) => {
    const body: ResponseBody<'blockUser', 201> = await blockUser(context, callerOf(res), userIdOf(req));
    res.status(201).json(body);
  };

  handlers.unblockUser = async (req, res) => {
    const body: ResponseBody<'unblockUser', 201> = await unblockUser(context, callerOf(res), userIdOf(req));
    res.status(201).json(body);
  };

  return handlers;
}
