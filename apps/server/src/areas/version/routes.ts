// Handlers of the version area: GET /version and its newer name GET /metadata, one answer.
import type { Response } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import type { ResponseBody } from '../../core/http/types.js';
import { getVersion } from './service.js';

export function versionHandlers(context: ServerContext): OperationHandlers {
  const send = (res: Response) => {
    const body: ResponseBody<'getVersion' | 'getMetadata', 200> = getVersion(context, callerOf(res));
    res.json(body);
  };
  return {
    getVersion: (_req, res) => send(res),
    getMetadata: (_req, res) => send(res),
  };
}
