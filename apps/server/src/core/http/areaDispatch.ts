// Sends an API request straight to the route that serves it. The validator has already matched the request to
// an operation of the spec (`req.openapi.expressRoute`, e.g. "/api/v4/projects/:id/pipelines"), so the route
// is one map lookup away. Walking Express's routers to find it again (the application's router, then the
// area's, layer by layer, with their URL bookkeeping) was a tenth of the CPU time of a small read.
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { runHandler } from './series.js';

/** What this module uses of a layer of an Express router (the `router` package's Layer and Route). */
interface RouteLayer {
  match(path: string): { params: Record<string, string> } | false;
  route?: {
    path: unknown;
    methods: Record<string, boolean>;
    /** The route's handlers, in order. */
    stack: { handle: RequestHandler }[];
    dispatch(req: Request, res: Response, done: NextFunction): void;
  };
}

interface ValidatedRequest extends Request {
  openapi?: { expressRoute?: string; decodedPathParams?: Record<string, string> };
}

/**
 * One middleware for every area router: an API request (a path under `basePath` that the validator matched)
 * goes to its route with `req.params` set as Express sets them (decoded); other requests pass by.
 */
export function areaDispatcher(basePath: string, routers: readonly Router[]): RequestHandler {
  // "GET /projects/:id/pipelines" → its route layer; the first declaration wins, as in Express.
  const layerOf = new Map<string, RouteLayer>();
  for (const router of routers) {
    for (const layer of router.stack as unknown as RouteLayer[]) {
      const path = layer.route?.path;
      if (typeof path !== 'string') continue;
      for (const method of Object.keys(layer.route?.methods ?? {})) {
        const key = `${method.toUpperCase()} ${path}`;
        if (!layerOf.has(key)) layerOf.set(key, layer);
      }
    }
  }

  return (req, res, next) => {
    const route = (req as ValidatedRequest).openapi?.expressRoute;
    if (!route?.startsWith(basePath)) return next();
    const path = route.slice(basePath.length);
    // Express answers HEAD with the GET route's handler when there is no HEAD route.
    const layer =
      layerOf.get(`${req.method} ${path}`) ??
      (req.method === 'HEAD' ? layerOf.get(`GET ${path}`) : undefined);
    if (!layer?.route) return next();
    // The parameters as the validator decoded them from the URL (its patch keeps them before it coerces
    // them), which is what Express's router gives; matching the route's path again only to decode them was
    // 3% of a small read. Without them (another validator), the route's own match.
    const decoded = (req as ValidatedRequest).openapi?.decodedPathParams;
    const params = decoded ?? (layer.match(req.path.slice(basePath.length)) || undefined)?.params;
    if (!params) return next();
    req.params = params;
    // A route of one handler (nearly all) is called directly; Route#dispatch would only walk its one layer.
    const handlers = layer.route.stack;
    if (handlers.length === 1 && handlers[0]) return runHandler(handlers[0].handle, req, res, next);
    layer.route.dispatch(req, res, next);
  };
}
