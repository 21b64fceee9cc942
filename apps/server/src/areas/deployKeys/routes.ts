// Routes of the deploy-keys area.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, pathParam } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  addDeployKey,
  deleteDeployKey,
  enableDeployKey,
  getDeployKey,
  listAllDeployKeys,
  listProjectDeployKeys,
  updateDeployKey,
} from './service.js';

export function deployKeysHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listAllDeployKeys = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listAllDeployKeys(context, callerOf(res), page);
    const body: ResponseBody<'listAllDeployKeys', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.listProjectDeployKeys = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listProjectDeployKeys(context, callerOf(res), pathParam(req, 'id'), page);
    const body: ResponseBody<'listProjectDeployKeys', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.addDeployKey = async (req, res) => {
    const key: ResponseBody<'addDeployKey', 201> = await addDeployKey(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'addDeployKey'>,
    );
    res.status(201).json(key);
  };

  handlers.getDeployKey = async (req, res) => {
    const key: ResponseBody<'getDeployKey', 200> = await getDeployKey(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'key_id'),
    );
    res.json(key);
  };

  handlers.updateDeployKey = async (req, res) => {
    const key: ResponseBody<'updateDeployKey', 200> = await updateDeployKey(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'key_id'),
      req.body as RequestBody<'updateDeployKey'> | undefined,
    );
    res.json(key);
  };

  handlers.deleteDeployKey = async (req, res) => {
    await deleteDeployKey(context, callerOf(res), pathParam(req, 'id'), integerPathParam(req, 'key_id'));
    res.status(204).end();
  };

  handlers.enableDeployKey = async (req, res) => {
    const key: ResponseBody<'enableDeployKey', 201> = await enableDeployKey(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'key_id'),
    );
    res.status(201).json(key);
  };

  return handlers;
}
