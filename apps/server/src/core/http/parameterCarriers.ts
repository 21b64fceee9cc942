// Seed convention 3: every operation takes its parameters in the query string, as form fields or as a JSON
// body, or mixed in one request. The spec documents one carrier per operation (writes as a request body,
// reads as query parameters), so before validation each parameter is moved to where the spec declares it.
// GitLab (Grape on Rack) merges the query and the body into one set of parameters for every method, the body
// winning on a name given twice; moving names by the operation's own schema gives the same result.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { matchedRoute } from './matchedOperation.js';
import { keepParsedQuery } from './queryParser.js';
import { splitUrl } from './request.js';
import { isObject, type Json, OperationIndex, type OperationOfDocument, resolve } from './specDocument.js';

/** What one operation declares: its query parameter names and the properties of its request body. */
export interface OperationCarriers {
  /** Names declared as query parameters (`in: query`). */
  query: ReadonlySet<string>;
  /** Top-level properties of the request body over all its media types; undefined without a body. */
  body: ReadonlySet<string> | undefined;
  /** The media type of a body built from the query when the request names none. */
  mediaType: string | undefined;
}

/** The token is authentication, not a parameter: it stays in whichever carrier it came in. */
const TOKEN = 'private_token';
const FORM = 'application/x-www-form-urlencoded';

/** The top-level property names of a schema, through `allOf`, `oneOf` and `anyOf`. */
function propertyNames(spec: Json, schema: unknown, into: Set<string>, depth = 0): void {
  const resolved = resolve(spec, schema);
  if (!isObject(resolved) || depth > 8) return;
  if (isObject(resolved.properties)) for (const name of Object.keys(resolved.properties)) into.add(name);
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const parts = resolved[key];
    if (Array.isArray(parts)) for (const part of parts) propertyNames(spec, part, into, depth + 1);
  }
}

function carriersOf(spec: Json, { operation, parameters }: OperationOfDocument): OperationCarriers {
  const query = new Set<string>();
  for (const parameter of parameters)
    if (parameter.in === 'query' && typeof parameter.name === 'string') query.add(parameter.name);
  const requestBody = resolve(spec, operation.requestBody);
  if (!isObject(requestBody) || !isObject(requestBody.content))
    return { query, body: undefined, mediaType: undefined };
  const body = new Set<string>();
  const mediaTypes = Object.keys(requestBody.content);
  for (const media of Object.values(requestBody.content))
    if (isObject(media)) propertyNames(spec, media.schema, body);
  return { query, body, mediaType: mediaTypes.includes(FORM) ? FORM : mediaTypes[0] };
}

/** Every operation of the document by `METHOD /base/path/{template}` (the key of core/http's route index). */
export function indexOperations(
  spec: Json,
  operations: readonly OperationOfDocument[],
): OperationIndex<OperationCarriers> {
  return new OperationIndex(operations, (entry) => carriersOf(spec, entry));
}

/** A query-string component decoded as the query parser decodes it; left as is when malformed. */
export function decodeComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The parameter a `name=value` pair belongs to: `upload[url]` and `x[]` belong to `upload` and `x`. */
export function topLevelName(pair: string): string {
  const equals = pair.indexOf('=');
  const key = decodeComponent(equals === -1 ? pair : pair.slice(0, equals));
  const bracket = key.indexOf('[');
  return bracket > 0 ? key.slice(0, bracket) : key;
}

/** The pairs of a raw query string, kept in their original encoding. */
export function queryPairs(search: string): string[] {
  return search.split('&').filter((pair) => pair !== '');
}

/** Query pairs for a body value: `x[]=a` for arrays of scalars, `x[0][k]=v` for arrays of objects. */
export function serializeParameter(name: string, value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      serializeParameter(
        isObject(item) || Array.isArray(item) ? `${name}[${index}]` : `${name}[]`,
        item,
        into,
      );
    });
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) serializeParameter(`${name}[${key}]`, item, into);
  } else if (value !== undefined && value !== null) {
    into.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return into;
}

export function withQuery(path: string, pairs: readonly string[]): string {
  return pairs.length === 0 ? path : `${path}?${pairs.join('&')}`;
}

/** A request body was sent that no parser read (no Content-Type): its parameters cannot be merged. */
function hasUnreadBody(req: Request): boolean {
  return (
    req.headers['content-type'] === undefined &&
    (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined)
  );
}

/**
 * An operation with a request body: query parameters that are properties of the body and not declared query
 * parameters go into the body, parsed by the app's query parser (bracket and array forms as in a form body);
 * the body wins on a name given twice. The validator then coerces them as it coerces form fields.
 */
function queryIntoBody(req: Request, operation: OperationCarriers, body: ReadonlySet<string>): void {
  if (req.body !== undefined && !isObject(req.body)) return;
  if (hasUnreadBody(req)) return;
  const { path, search } = splitUrl(req.url);
  const kept: string[] = [];
  const moved: string[] = [];
  for (const pair of queryPairs(search)) {
    const name = topLevelName(pair);
    const belongsInBody = name !== TOKEN && body.has(name) && !operation.query.has(name);
    (belongsInBody ? moved : kept).push(pair);
  }
  if (req.body === undefined && req.headers['content-type'] !== undefined) {
    // A Content-Type but no body at all (a JSON client sending only query parameters): an empty body.
    req.body = {};
  }
  if (moved.length === 0) return;
  const parse = req.app.get('query parser fn') as (text: string) => unknown;
  const fromQuery = parse(moved.join('&'));
  req.body = { ...(isObject(fromQuery) ? fromQuery : {}), ...(isObject(req.body) ? req.body : {}) };
  if (req.headers['content-type'] === undefined && operation.mediaType !== undefined) {
    req.headers['content-type'] = operation.mediaType;
  }
  req.url = withQuery(path, kept);
  keepParsedQuery(req);
}

/**
 * An operation without a request body (reads, and writes that take only path parameters): body fields that
 * are declared query parameters go into the query string, the body winning on a name given twice, so the
 * route reads them where the spec declares them.
 */
function bodyIntoQuery(req: Request, operation: OperationCarriers): void {
  const body: unknown = req.body;
  if (!isObject(body)) return;
  const names = Object.keys(body).filter((name) => name !== TOKEN && operation.query.has(name));
  if (names.length === 0) return;
  const given = new Set(names);
  const { path, search } = splitUrl(req.url);
  const pairs = queryPairs(search).filter((pair) => !given.has(topLevelName(pair)));
  for (const name of names) {
    serializeParameter(name, body[name], pairs);
    delete body[name];
  }
  req.url = withQuery(path, pairs);
  keepParsedQuery(req);
  // The pagination links are built from the URL as sent: they must carry the filters the body gave.
  req.originalUrl = req.url;
}

/**
 * The middleware that puts every parameter where the operation declares it. It runs after the route index
 * matched the request's operation and multipart bodies were read, before request validation.
 */
export function parameterCarriers(index: OperationIndex<OperationCarriers>): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const key = matchedRoute(req);
    const operation = key === undefined ? undefined : index.get(key);
    if (operation?.body !== undefined) queryIntoBody(req, operation, operation.body);
    else if (operation !== undefined) bodyIntoQuery(req, operation);
    next();
  };
}
