// Small readers of an Express request shared by the routers.
import type { RequestHandler } from 'express';
import { invalidParameter, missingParameter } from './errors.js';
import type { ApiRequest } from './types.js';

/** A request URL's path and its query string (what follows the first `?`, '' without one). */
export function splitUrl(url: string): { path: string; search: string } {
  const mark = url.indexOf('?');
  return mark === -1 ? { path: url, search: '' } : { path: url.slice(0, mark), search: url.slice(mark + 1) };
}

/** scheme://host of the request, for the web_url and Link values the API returns. */
export function originOf(req: ApiRequest): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** A path parameter (Express has already decoded `%2F` into `/`). */
export function pathParam(req: ApiRequest, name: string): string {
  const value = req.params[name];
  if (typeof value !== 'string' || value === '') throw missingParameter(name);
  return value;
}

/** An integer path parameter (`key_id`, `badge_id`): digits only, else a 400 naming it. */
export function integerPathParam(req: ApiRequest, name: string): number {
  const value = pathParam(req, name);
  if (!/^\d+$/.test(value)) throw invalidParameter(name);
  return Number(value);
}

/** A required query parameter that the validator has already checked. */
export function queryString(req: ApiRequest, name: string): string {
  const value = req.query[name];
  if (typeof value !== 'string') throw missingParameter(name);
  return value;
}

export function optionalQueryString(req: ApiRequest, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Doubled slashes of a request's path merged into one before routing (`POST /features//my_flag`, which a
 * client sends when it joins a base URL ending in `/` with a path starting with one), as GitLab's web server
 * does. The query string is left as it is (its values may hold URLs); `%2F` is a parameter's own slash.
 */
export const mergeDoubledSlashes: RequestHandler = (req, _res, next) => {
  if (req.url.includes('//')) {
    const { path, search } = splitUrl(req.url);
    if (path.includes('//')) {
      // The validator finds the route from originalUrl, the routes from url: both change.
      req.url = `${path.replace(/\/{2,}/g, '/')}${search === '' ? '' : `?${search}`}`;
      req.originalUrl = req.url;
    }
  }
  next();
};
