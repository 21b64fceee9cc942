// Routes of the protected-branches area.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { optionalQueryString, pathParam } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  getProtectedBranch,
  listProtectedBranches,
  protectBranch,
  unprotectBranch,
  updateProtectedBranch,
} from './service.js';

export function protectedBranchesHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listProtectedBranches = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listProtectedBranches(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      optionalQueryString(req, 'search'),
      page,
    );
    const body: ResponseBody<'listProtectedBranches', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.protectBranch = async (req, res) => {
    const rule: ResponseBody<'protectBranch', 201> = await protectBranch(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'protectBranch'>,
    );
    res.status(201).json(rule);
  };

  handlers.getProtectedBranch = async (req, res) => {
    const rule: ResponseBody<'getProtectedBranch', 200> = await getProtectedBranch(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'name'),
    );
    res.json(rule);
  };

  handlers.updateProtectedBranch = async (req, res) => {
    const rule: ResponseBody<'updateProtectedBranch', 200> = await updateProtectedBranch(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'name'),
      req.body as RequestBody<'updateProtectedBranch'> | undefined,
    );
    res.json(rule);
  };

  handlers.unprotectBranch = async (req, res) => {
    await unprotectBranch(context, callerOf(res), pathParam(req, 'id'), pathParam(req, 'name'));
    res.status(204).end();
  };

  return handlers;
}
