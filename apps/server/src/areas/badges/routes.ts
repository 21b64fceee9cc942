// Routes of the badges area: the same six operations under /projects/:id and /groups/:id.

import type { Request } from 'express';
import { Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { invalidParameter } from '../../core/http/errors.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { optionalQueryString, pathParam, queryString } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  addGroupBadge,
  addProjectBadge,
  deleteGroupBadge,
  deleteProjectBadge,
  getGroupBadge,
  getProjectBadge,
  listGroupBadges,
  listProjectBadges,
  type RenderRequest,
  renderGroupBadge,
  renderProjectBadge,
  updateGroupBadge,
  updateProjectBadge,
} from './service.js';

/** `badge_id` is an integer (the validator has checked it; this keeps the service's input typed). */
function badgeIdOf(req: Request): number {
  const value = pathParam(req, 'badge_id');
  if (!/^\d+$/.test(value)) throw invalidParameter('badge_id');
  return Number(value);
}

function renderQueryOf(req: Request): RenderRequest {
  return { link_url: queryString(req, 'link_url'), image_url: queryString(req, 'image_url') };
}

export function badgesRouter(context: ServerContext): Router {
  const router = Router();

  /* Project badges. `render` comes before `:badge_id`, which it would otherwise match. */

  router.get('/projects/:id/badges', async (req, res) => {
    const page = readPage(req);
    const caller = callerOf(res);
    const name = optionalQueryString(req, 'name');
    const { items, total } = await listProjectBadges(context, caller, pathParam(req, 'id'), name, page);
    const body: ResponseBody<'listProjectBadges', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  });

  router.post('/projects/:id/badges', async (req, res) => {
    const badge: ResponseBody<'addProjectBadge', 201> = await addProjectBadge(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'addProjectBadge'>,
    );
    res.status(201).json(badge);
  });

  router.get('/projects/:id/badges/render', async (req, res) => {
    const preview: ResponseBody<'renderProjectBadge', 200> = await renderProjectBadge(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      renderQueryOf(req),
    );
    res.json(preview);
  });

  router.get('/projects/:id/badges/:badge_id', async (req, res) => {
    const badge: ResponseBody<'getProjectBadge', 200> = await getProjectBadge(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      badgeIdOf(req),
    );
    res.json(badge);
  });

  router.put('/projects/:id/badges/:badge_id', async (req, res) => {
    const badge: ResponseBody<'updateProjectBadge', 200> = await updateProjectBadge(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      badgeIdOf(req),
      req.body as RequestBody<'updateProjectBadge'> | undefined,
    );
    res.json(badge);
  });

  router.delete('/projects/:id/badges/:badge_id', async (req, res) => {
    await deleteProjectBadge(context, callerOf(res), pathParam(req, 'id'), badgeIdOf(req));
    res.status(204).end();
  });

  /* Group badges. */

  router.get('/groups/:id/badges', async (req, res) => {
    const page = readPage(req);
    const caller = callerOf(res);
    const name = optionalQueryString(req, 'name');
    const { items, total } = await listGroupBadges(context, caller, pathParam(req, 'id'), name, page);
    const body: ResponseBody<'listGroupBadges', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  });

  router.post('/groups/:id/badges', async (req, res) => {
    const badge: ResponseBody<'addGroupBadge', 201> = await addGroupBadge(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'addGroupBadge'>,
    );
    res.status(201).json(badge);
  });

  router.get('/groups/:id/badges/render', async (req, res) => {
    const preview: ResponseBody<'renderGroupBadge', 200> = await renderGroupBadge(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      renderQueryOf(req),
    );
    res.json(preview);
  });

  router.get('/groups/:id/badges/:badge_id', async (req, res) => {
    const badge: ResponseBody<'getGroupBadge', 200> = await getGroupBadge(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      badgeIdOf(req),
    );
    res.json(badge);
  });

  router.put('/groups/:id/badges/:badge_id', async (req, res) => {
    const badge: ResponseBody<'updateGroupBadge', 200> = await updateGroupBadge(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      badgeIdOf(req),
      req.body as RequestBody<'updateGroupBadge'> | undefined,
    );
    res.json(badge);
  });

  router.delete('/groups/:id/badges/:badge_id', async (req, res) => {
    await deleteGroupBadge(context, callerOf(res), pathParam(req, 'id'), badgeIdOf(req));
    res.status(204).end();
  });

  return router;
}
