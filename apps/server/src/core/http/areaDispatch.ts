// Sends an API request straight to the one area router that declares its route. The validator has already
// matched the request to an operation of the spec (`req.openapi.expressRoute`), so walking every area's
// router in turn to find the route again is wasted work.
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';

interface RouteLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
}

interface ValidatedRequest extends Request {
  openapi?: { expressRoute?: string };
}

export function areaDispatcher(basePath: string, routers: readonly Router[]): RequestHandler {
  // "GET /projects/:id/pipelines" → the router that declares it; the first declaration wins, as in Express.
  const routerOf = new Map<string, Router>();
  for (const router of routers) {
    for (const layer of router.stack as RouteLayer[]) {
      const path = layer.route?.path;
      if (typeof path !== 'string') continue;
      for (const method of Object.keys(layer.route?.methods ?? {})) {
        const key = `${method.toUpperCase()} ${path}`;
        if (!routerOf.has(key)) routerOf.set(key, router);
      }
    }
  }

  /** Tries every router in order, as `app.use` of each would: for requests the validator matched to no route. */
  function walk(req: Request, res: Response, next: NextFunction, index: number): void {
    const router = routers[index];
    if (!router) {
      next();
      return;
    }
    router(req, res, (error?: unknown) => {
      if (error !== undefined && error !== 'router' && error !== 'route') next(error);
      else walk(req, res, next, index + 1);
    });
  }

  return (req, res, next) => {
    const route = (req as ValidatedRequest).openapi?.expressRoute;
    if (route?.startsWith(basePath)) {
      const path = route.slice(basePath.length);
      // Express answers HEAD with the GET route's handler when there is no HEAD route.
      const router =
        routerOf.get(`${req.method} ${path}`) ??
        (req.method === 'HEAD' ? routerOf.get(`GET ${path}`) : undefined);
      if (router) return router(req, res, next);
    }
    walk(req, res, next, 0);
  };
}
