// Routes of the feature-flag area (administrators only).

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import { deleteFeature, listFeatures, setFeatureGate } from './service.js';

export function featuresHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listFeatures = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listFeatures(context, callerOf(res), page);
    setPaginationHeaders(req, res, page, total);
    const body: ResponseBody<'listFeatures', 200> = items;
    res.json(body);
  };

  handlers.setFeatureGate = async (req, res) => {
    const body: ResponseBody<'setFeatureGate', 201> = await setFeatureGate(
      context,
      callerOf(res),
      pathParam(req, 'name'),
      req.body as RequestBody<'setFeatureGate'>,
    );
    res.status(201).json(body);
  };

  handlers.deleteFeature = async (req, res) => {
    await deleteFeature(context, callerOf(res), pathParam(req, 'name'));
    res.status(204).end();
  };

  return handlers;
}
