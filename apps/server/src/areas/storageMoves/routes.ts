// Routes of the project repository storage moves area (administrators only).

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { ResponseBody } from '../../core/http/types.js';
import { getStorageMove, listStorageMoves } from './service.js';

export function storageMovesHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listProjectRepositoryStorageMoves = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listStorageMoves(context, callerOf(res), page);
    const body: ResponseBody<'listProjectRepositoryStorageMoves', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.getProjectRepositoryStorageMove = async (req, res) => {
    // The validator has checked (and coerced) the integer.
    const move: ResponseBody<'getProjectRepositoryStorageMove', 200> = await getStorageMove(
      context,
      callerOf(res),
      Number(pathParam(req, 'id')),
    );
    res.json(move);
  };

  return handlers;
}
