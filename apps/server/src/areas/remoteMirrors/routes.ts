// Routes of the remote mirrors area.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import { createRemoteMirror, listRemoteMirrors, updateRemoteMirror } from './service.js';

export function remoteMirrorsHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listRemoteMirrors = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listRemoteMirrors(context, callerOf(res), pathParam(req, 'id'), page);
    const body: ResponseBody<'listRemoteMirrors', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.createRemoteMirror = async (req, res) => {
    const mirror: ResponseBody<'createRemoteMirror', 201> = await createRemoteMirror(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'createRemoteMirror'>,
    );
    res.status(201).json(mirror);
  };

  handlers.updateRemoteMirror = async (req, res) => {
    const mirror: ResponseBody<'updateRemoteMirror', 200> = await updateRemoteMirror(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      // The validator has checked (and coerced) the integer.
      Number(pathParam(req, 'mirror_id')),
      req.body as RequestBody<'updateRemoteMirror'>,
    );
    res.json(mirror);
  };

  return handlers;
}
