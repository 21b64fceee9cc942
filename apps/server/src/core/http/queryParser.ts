// The query string parser of the app. Bracket forms (`custom_attributes[key]=value`, `upload[url]=…`, `x[]=a`)
// need qs ("extended"); a query without brackets parses the same with Node's own parser at a fraction of the
// cost. It matters because Express 5 parses the query again on every read of `req.query` (the validator and
// the routes read it several times per request): qs was 3% of a GET file's CPU time for `?ref=main`.
import { parse as parseSimple } from 'node:querystring';
import type { Request, RequestHandler } from 'express';

export type QueryParser = (text: string | null) => unknown;

export function fastQueryParser(extended: QueryParser): QueryParser {
  // Express passes null for a URL without `?`: qs makes that `{}`.
  return (text: string | null) =>
    text === null || text.includes('[') || /%5b/i.test(text)
      ? extended(text)
      : // A plain object, as qs gives (Node's has no prototype); spread keeps a `__proto__` key an own property.
        { ...parseSimple(text) };
}

/**
 * Parses the query of `req.url` with the app's query parser and keeps it as the request's own, writable
 * `query`. Express 5's `req.query` is a getter that parses the URL again at every read, and the validator
 * (which coerces the values it validates in place) redefines it on every request to make it writable; an
 * own property is parsed once and needs neither. Called first for every API request, and again by whatever
 * rewrites `req.url` (parameterCarriers).
 */
export function keepParsedQuery(req: Request): void {
  const parse = req.app.get('query parser fn') as QueryParser;
  const mark = req.url.indexOf('?');
  Object.defineProperty(req, 'query', {
    value: parse(mark === -1 ? null : req.url.slice(mark + 1)),
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** keepParsedQuery as the first middleware of the API. */
export function parseQueryOnce(): RequestHandler {
  return (req, _res, next) => {
    keepParsedQuery(req);
    next();
  };
}
