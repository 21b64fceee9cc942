// Routes of the badges area: the same six operations under /projects/:id and /groups/:id.
import type { Request } from 'express';
import { Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, optionalQueryString, pathParam, queryString } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  addSourceBadge,
  deleteSourceBadge,
  getSourceBadge,
  listSourceBadges,
  type RenderRequest,
  renderSourceBadge,
  type SourceKind,
  updateSourceBadge,
} from './service.js';

function renderQueryOf(req: Request): RenderRequest {
  return { link_url: queryString(req, 'link_url'), image_url: queryString(req, 'image_url') };
}

export function badgesRouter(context: ServerContext): Router {
  const router = Router();

  for (const [prefix, kind] of [
    ['/projects', 'Project'],
    ['/groups', 'Group'],
  ] as const satisfies readonly (readonly [string, SourceKind])[]) {
    router.get(`${prefix}/:id/badges`, async (req, res) => {
      const page = readPage(req);
      const name = optionalQueryString(req, 'name');
      const { items, total } = await listSourceBadges(
        context,
        callerOf(res),
        kind,
        pathParam(req, 'id'),
        name,
        page,
      );
      const body: ResponseBody<'listProjectBadges' | 'listGroupBadges', 200> = items;
      setPaginationHeaders(req, res, page, total);
      res.json(body);
    });

    router.post(`${prefix}/:id/badges`, async (req, res) => {
      const badge: ResponseBody<'addProjectBadge' | 'addGroupBadge', 201> = await addSourceBadge(
        context,
        callerOf(res),
        kind,
        pathParam(req, 'id'),
        req.body as RequestBody<'addProjectBadge' | 'addGroupBadge'>,
      );
      res.status(201).json(badge);
    });

    // `render` comes before `:badge_id`, which it would otherwise match.
    router.get(`${prefix}/:id/badges/render`, async (req, res) => {
      const preview: ResponseBody<'renderProjectBadge' | 'renderGroupBadge', 200> = await renderSourceBadge(
        context,
        callerOf(res),
        kind,
        pathParam(req, 'id'),
        renderQueryOf(req),
      );
      res.json(preview);
    });

    router.get(`${prefix}/:id/badges/:badge_id`, async (req, res) => {
      const badge: ResponseBody<'getProjectBadge' | 'getGroupBadge', 200> = await getSourceBadge(
        context,
        callerOf(res),
        kind,
        pathParam(req, 'id'),
        integerPathParam(req, 'badge_id'),
      );
      res.json(badge);
    });

    router.put(`${prefix}/:id/badges/:badge_id`, async (req, res) => {
      const badge: ResponseBody<'updateProjectBadge' | 'updateGroupBadge', 200> = await updateSourceBadge(
        context,
        callerOf(res),
        kind,
        pathParam(req, 'id'),
        integerPathParam(req, 'badge_id'),
        req.body as RequestBody<'updateProjectBadge' | 'updateGroupBadge'> | undefined,
      );
      res.json(badge);
    });

    router.delete(`${prefix}/:id/badges/:badge_id`, async (req, res) => {
      await deleteSourceBadge(
        context,
        callerOf(res),
        kind,
        pathParam(req, 'id'),
        integerPathParam(req, 'badge_id'),
      );
      res.status(204).end();
    });
  }

  return router;
}
