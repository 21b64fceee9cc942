// Routes of the remote mirrors area.
import { Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import { createRemoteMirror, listRemoteMirrors, updateRemoteMirror } from './service.js';

export function remoteMirrorsRouter(context: ServerContext): Router {
  const router = Router();

  router.get('/projects/:id/remote_mirrors', async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listRemoteMirrors(context, callerOf(res), pathParam(req, 'id'), page);
    const body: ResponseBody<'listRemoteMirrors', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  });

  router.post('/projects/:id/remote_mirrors', async (req, res) => {
    const mirror: ResponseBody<'createRemoteMirror', 201> = await createRemoteMirror(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'createRemoteMirror'>,
    );
    res.status(201).json(mirror);
  });

  router.put('/projects/:id/remote_mirrors/:mirror_id', async (req, res) => {
    const mirror: ResponseBody<'updateRemoteMirror', 200> = await updateRemoteMirror(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      // The validator has checked (and coerced) the integer.
      Number(pathParam(req, 'mirror_id')),
      req.body as RequestBody<'updateRemoteMirror'>,
    );
    res.json(mirror);
  });

  return router;
}
