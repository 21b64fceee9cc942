// Routes of the group labels area, with the deprecated PUT and DELETE on /groups/:id/labels (label by `name`).
import { Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { QueryParams, RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  createGroupLabel,
  deleteGroupLabel,
  getGroupLabel,
  listGroupLabels,
  setLabelSubscription,
  updateGroupLabel,
} from './service.js';

export function groupLabelsRouter(context: ServerContext): Router {
  const router = Router();

  router.get('/groups/:id/labels', async (req, res) => {
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
  });

  router.post('/groups/:id/labels', async (req, res) => {
    const label: ResponseBody<'createGroupLabel', 201> = await createGroupLabel(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'createGroupLabel'>,
    );
    res.status(201).json(label);
  });

  router.put('/groups/:id/labels', async (req, res) => {
    const body = req.body as RequestBody<'updateGroupLabelByName'>;
    const label: ResponseBody<'updateGroupLabelByName', 200> = await updateGroupLabel(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      body.name,
      body,
    );
    res.json(label);
  });

  router.delete('/groups/:id/labels', async (req, res) => {
    const body = req.body as RequestBody<'deleteGroupLabelByName'>;
    await deleteGroupLabel(context, callerOf(res), pathParam(req, 'id'), body.name);
    res.status(204).end();
  });

  router.get('/groups/:id/labels/:label_id', async (req, res) => {
    const query = req.query as QueryParams<'getGroupLabel'>;
    const label: ResponseBody<'getGroupLabel', 200> = await getGroupLabel(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'label_id'),
      query.include_ancestor_groups !== false,
    );
    res.json(label);
  });

  router.put('/groups/:id/labels/:label_id', async (req, res) => {
    const label: ResponseBody<'updateGroupLabel', 200> = await updateGroupLabel(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'label_id'),
      req.body as RequestBody<'updateGroupLabel'> | undefined,
    );
    res.json(label);
  });

  router.delete('/groups/:id/labels/:label_id', async (req, res) => {
    await deleteGroupLabel(context, callerOf(res), pathParam(req, 'id'), pathParam(req, 'label_id'));
    res.status(204).end();
  });

  for (const [action, wanted] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const) {
    router.post(`/groups/:id/labels/:label_id/${action}`, async (req, res) => {
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
    });
  }

  return router;
}
