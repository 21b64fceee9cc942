// Runs several middlewares one after the other as one Express layer. Each layer of Express's router costs a
// path match, URL bookkeeping and a few closures per request; the dozen application-level middlewares every
// API request passes (body parsers, authentication, the validator's chain) were a tenth of a read's CPU time.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** One middleware made of `handlers` in order; an error (thrown, rejected or passed on) skips the rest. */
export function inSeries(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step: NextFunction = (error?: unknown) => {
      // 'route' and 'router' ask Express to skip the rest of a router: here, the rest of the series.
      if (error === 'route' || error === 'router') return next();
      if (error !== undefined && error !== null) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      runHandler(handler, req, res, step);
    };
    step();
  };
}

/**
 * Calls a middleware or route handler as Express does: what it throws, or the rejection of the promise an
 * async handler returns, goes to `next` as an error.
 */
export function runHandler(handler: RequestHandler, req: Request, res: Response, next: NextFunction): void {
  try {
    const result: unknown = handler(req, res, next);
    if (result instanceof Promise)
      result.catch((error: unknown) => next(error ?? new Error('Rejected promise')));
  } catch (thrown) {
    next(thrown);
  }
}

/** The middleware, for requests whose path is `prefix` or below it; other requests pass by. */
export function underPath(prefix: string, handler: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    if (path === prefix || path.startsWith(`${prefix}/`)) return handler(req, res, next);
    next();
  };
}

/** Whether a request carries a body, as body parsers judge it (type-is's `hasBody`, which multer also uses). */
export function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

/**
 * The middleware, for requests that carry a body; other requests pass by. A body parser given a request
 * without a body still walks the request's prototype chain (`'body' in req`), adds `req.body = undefined` and
 * checks whether the request has finished: about 5% of a small read's CPU time for the two parsers.
 */
export function onlyWithBody(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (hasBody(req) ? handler(req, res, next) : next());
}
