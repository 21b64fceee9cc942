// Routes of the group labels area, with the deprecated PUT and DELETE on /groups/:id/labels (label by `name`).

import type { Response } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { ApiRequest, QueryParams, RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  createGroupLabel,
  deleteGroupLabel,
  getGroupLabel,
  listGroupLabels,
  setLabelSubscription,
  updateGroupLabel,
} from './service.js';

export function groupLabelsHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listGroupLabels = async (req, res) => {
    const page = readPage(req);
    const query = req.query as QueryParams<'listGroupLabels'>;
    const { items, total } = await listGroupLabels(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      { withCounts: query.with_counts === true, includeAncestors: query.include_ancestor_groups !== false },
      page,
    );
    const body: ResponseBody<'listGroupLabels', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.createGroupLabel = async (req, res) => {
    const label: ResponseBody<'createGroupLabel', 201> = await createGroupLabel(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'createGroupLabel'>,
    );
    res.status(201).json(label);
  };

  handlers.updateGroupLabelByName = async (req, res) => {
    const body = req.body as RequestBody<'updateGroupLabelByName'>;
    const label: ResponseBody<'updateGroupLabelByName', 200> = await updateGroupLabel(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      body.name,
      body,
    );
    res.json(label);
  };

  handlers.deleteGroupLabelByName = async (req, res) => {
    const body = req.body as RequestBody<'deleteGroupLabelByName'>;
    await deleteGroupLabel(context, callerOf(res), pathParam(req, 'id'), body.name);
    res.status(204).end();
  };

  handlers.getGroupLabel = async (req, res) => {
    const query = req.query as QueryParams<'getGroupLabel'>;
    const label: ResponseBody<'getGroupLabel', 200> = await getGroupLabel(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'label_id'),
      query.include_ancestor_groups !== false,
    );
    res.json(label);
  };

  handlers.updateGroupLabel = async (req, res) => {
    const label: ResponseBody<'updateGroupLabel', 200> = await updateGroupLabel(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'label_id'),
      req.body as RequestBody<'updateGroupLabel'> | undefined,
    );
    res.json(label);
  };

  handlers.deleteGroupLabel = async (req, res) => {
    await deleteGroupLabel(context, callerOf(res), pathParam(req, 'id'), pathParam(req, 'label_id'));
    res.status(204).end();
  };

  const subscription = async (wanted: boolean, req: ApiRequest, res: Response) => {
    const label: ResponseBody<'subscribeGroupLabel' | 'unsubscribeGroupLabel', 201> | undefined =
      await setLabelSubscription(
        context,
        callerOf(res),
        pathParam(req, 'id'),
        pathParam(req, 'label_id'),
        wanted,
      );
    if (label === undefined) res.status(304).end();
    else res.status(201).json(label);
  };
  handlers.subscribeGroupLabel = (req, res) => subscription(true, req, res);
  handlers.unsubscribeGroupLabel = (req, res) => subscription(false, req, res);

  return handlers;
}
