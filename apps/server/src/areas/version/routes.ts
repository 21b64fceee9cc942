// Routes of the version area: GET /version and its newer name GET /metadata, one answer.
import { Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { ResponseBody } from '../../core/http/types.js';
import { getVersion } from './service.js';

export function versionRouter(context: ServerContext): Router {
  const router = Router();
  for (const path of ['/version', '/metadata']) {
    router.get(path, (_req, res) => {
      const body: ResponseBody<'getVersion' | 'getMetadata', 200> = getVersion(context, callerOf(res));
      res.json(body);
    });
  }
  return router;
}
