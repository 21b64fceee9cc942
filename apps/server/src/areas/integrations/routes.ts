// Routes of the integrations area: the list and, per slug, GET, PUT and DELETE, under both names GitLab
// serves them at: `/projects/:id/services/…` (the seeds) and `/projects/:id/integrations/…` (GitLab ≥ 14.0).
import { Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import { SLUGS, type UpdateOperation } from './catalog.js';
import { getIntegration, listIntegrations, putIntegration, removeIntegration } from './service.js';

export function integrationsRouter(context: ServerContext): Router {
  const router = Router();

  for (const family of ['services', 'integrations'] as const) {
    router.get(`/projects/:id/${family}`, async (req, res) => {
      const page = readPage(req);
      const { items, total } = await listIntegrations(context, callerOf(res), pathParam(req, 'id'), page);
      const body: ResponseBody<'listProjectIntegrations' | 'listActiveProjectIntegrations', 200> = items;
      setPaginationHeaders(req, res, page, total);
      res.json(body);
    });

    for (const slug of SLUGS) {
      const path = `/projects/:id/${family}/${slug}`;
      router.get(path, async (req, res) => {
        res.json(await getIntegration(context, callerOf(res), pathParam(req, 'id'), slug));
      });
      router.put(path, async (req, res) => {
        // Validated against the slug's body schema (both families take the same one).
        const body = req.body as RequestBody<UpdateOperation<typeof slug>>;
        res.json(await putIntegration(context, callerOf(res), pathParam(req, 'id'), slug, body));
      });
      router.delete(path, async (req, res) => {
        await removeIntegration(context, callerOf(res), pathParam(req, 'id'), slug);
        res.status(204).end();
      });
    }
  }

  return router;
}
