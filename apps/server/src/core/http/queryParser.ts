// The query string parser of the app. Bracket forms (`custom_attributes[key]=value`, `upload[url]=…`, `x[]=a`)
// need qs ("extended"); a query without brackets parses the same with Node's own parser at a fraction of the
// cost (qs was 3% of a GET file's CPU time for `?ref=main` when Express parsed the query at every read of
// `req.query`). And the app's requests parse their query once (parseQueryOncePerRequest).
import { parse as parseSimple } from 'node:querystring';
import type { Express, Request } from 'express';

export type QueryParser = (text: string | null) => unknown;

export function fastQueryParser(extended: QueryParser): QueryParser {
  // Express passes null for a URL without `?`: qs makes that `{}`, as does an empty query.
  return (text: string | null) => {
    if (text === null || text === '') return {};
    return text.includes('[') || /%5b/i.test(text) ? extended(text) : asPlainObject(parseSimple(text));
  };
}

/**
 * Node's parse as a plain object, as qs gives (Node's has no prototype), a `__proto__` key kept an own
 * property. Copied key by key: spreading Node's object (a dictionary, having no prototype) took the slow path,
 * 0.85 against 0.49 µs for a parse of `per_page=20&page=1` in a loop.
 */
function asPlainObject(parsed: Record<string, unknown>): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(parsed)) setOwnProperty(plain, key, parsed[key]);
  return plain;
}

/** Sets `key` as an own enumerable property, `__proto__` included (an assignment would set the prototype). */
export function setOwnProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** The query string of a request URL (what follows the first `?`), or null, as Express hands it to the parser. */
function queryStringOf(url: string): string | null {
  const mark = url.indexOf('?');
  return mark === -1 ? null : url.slice(mark + 1);
}

const PARSED_QUERY = Symbol('parsed query');

type RequestWithQuery = Request & { [PARSED_QUERY]?: unknown };

/**
 * Makes `req.query` of the app's requests parsed once and settable. Express 5's `req.query` is a getter that
 * parses the URL again at every read, and the validator (which coerces the values it validates in place)
 * needs a writable property: without a setter it redefines `query` on each request, which cost more than
 * the rest of its bookkeeping. Installed on the app's request prototype, after its query parser is set.
 */
export function parseQueryOncePerRequest(app: Express): void {
  const parse = app.get('query parser fn') as QueryParser;
  Object.defineProperty(app.request, 'query', {
    configurable: true,
    enumerable: true,
    get(this: RequestWithQuery): unknown {
      if (this[PARSED_QUERY] === undefined) this[PARSED_QUERY] = parse(queryStringOf(this.url));
      return this[PARSED_QUERY];
    },
    set(this: RequestWithQuery, value: unknown) {
      this[PARSED_QUERY] = value;
    },
  });
}

/**
 * Parses `req.url`'s query again, for whatever rewrites the URL of a request (parameterCarriers); the app has
 * parseQueryOncePerRequest, which makes `req.query` settable.
 */
export function keepParsedQuery(req: Request): void {
  const parse = req.app.get('query parser fn') as QueryParser;
  req.query = parse(queryStringOf(req.url)) as Request['query'];
}
