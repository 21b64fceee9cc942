// Routes of the project repository storage moves area (administrators only).
import { Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { ResponseBody } from '../../core/http/types.js';
import { getStorageMove, listStorageMoves } from './service.js';

export function storageMovesRouter(context: ServerContext): Router {
  const router = Router();

  router.get('/project_repository_storage_moves', async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listStorageMoves(context, callerOf(res), page);
    const body: ResponseBody<'listProjectRepositoryStorageMoves', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  });

  router.get('/project_repository_storage_moves/:id', async (req, res) => {
    // The validator has checked (and coerced) the integer.
    const move: ResponseBody<'getProjectRepositoryStorageMove', 200> = await getStorageMove(
      context,
      callerOf(res),
      Number(pathParam(req, 'id')),
    );
    res.json(move);
  });

  return router;
}
