// Routes of the branches area.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { optionalQueryString, originOf, pathParam } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import { createBranch, deleteBranch, deleteMergedBranches, getBranch, listBranches } from './service.js';

export function branchesHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listBranches = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listBranches(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      optionalQueryString(req, 'search'),
      originOf(req),
      page,
    );
    const body: ResponseBody<'listBranches', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.createBranch = async (req, res) => {
    const body = req.body as RequestBody<'createBranch'>;
    const branch: ResponseBody<'createBranch', 201> = await createBranch(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      body.branch,
      body.ref,
      originOf(req),
    );
    res.status(201).json(branch);
  };

  handlers.getBranch = async (req, res) => {
    const branch: ResponseBody<'getBranch', 200> = await getBranch(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'branch'),
      originOf(req),
    );
    res.json(branch);
  };

  handlers.deleteBranch = async (req, res) => {
    await deleteBranch(context, callerOf(res), pathParam(req, 'id'), pathParam(req, 'branch'));
    res.status(204).end();
  };

  handlers.deleteMergedBranches = async (_req, res) => {
    await deleteMergedBranches(context, callerOf(res), pathParam(_req, 'id'));
    const body: ResponseBody<'deleteMergedBranches', 202> = { message: '202 Accepted' };
    res.status(202).json(body);
  };

  return handlers;
}
