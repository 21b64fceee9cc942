// Routes of the project hooks area: the list and the read (adding, editing and deleting are not in the seeds).

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, pathParam } from '../../core/http/request.js';
import type { ResponseBody } from '../../core/http/types.js';
import { getProjectHook, listProjectHooks } from './service.js';

export function projectHooksHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listProjectHooks = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listProjectHooks(context, callerOf(res), pathParam(req, 'id'), page);
    const body: ResponseBody<'listProjectHooks', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.getProjectHook = async (req, res) => {
    const hook: ResponseBody<'getProjectHook', 200> = await getProjectHook(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'hook_id'),
    );
    res.json(hook);
  };

  return handlers;
}
