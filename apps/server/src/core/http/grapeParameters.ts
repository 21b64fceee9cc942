// Parameters read as GitLab reads them (Grape), once, for every operation, before request validation. The
// validator then checks values of the right types, and routes receive what Grape's `declared(params)` gives:
// - booleans in Grape's spellings (`True`, `1`, `yes` …, see booleans.ts), in the query, a form or JSON;
// - integers and numbers given as strings (`"30"` in JSON, every form field and query value) as numbers, and
//   numbers or booleans given for a string as their text;
// - a JSON null for an optional property is "not given": it is dropped (a null for a required one stays, and
//   the validator refuses it);
// - an empty query value (`search=`) of an optional parameter is "not given" (an empty search filters nothing);
// - a query parameter the operation does not declare is ignored, as Grape ignores undeclared parameters;
// - a negative integer ID in the path (or one past what an ID can be) names nothing: 404, as an unknown one.
// The JSON body is no longer coerced by the validator (its coercion turned a null into false, "" or 0).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { toBoolean } from './booleans.js';
import { notFound } from './errors.js';
import { matchedOperation } from './matchedOperation.js';
import { decodeComponent, queryPairs, topLevelName, withQuery } from './parameterCarriers.js';
import { keepParsedQuery } from './queryParser.js';
import { splitUrl } from './request.js';
import { isObject, type Json, OperationIndex, type OperationOfDocument, resolve } from './specDocument.js';

/** What a value is read as: the schema's one non-null type, or `any` where it allows several. */
export type ValueReader =
  | { kind: 'boolean' | 'integer' | 'number' | 'string' | 'any' }
  | { kind: 'array'; items: ValueReader }
  | { kind: 'object'; properties: ReadonlyMap<string, ValueReader>; required: ReadonlySet<string> };

interface QueryParameter {
  required: boolean;
  reader: ValueReader;
}

/** How one operation's parameters are read. */
export interface OperationReading {
  query: ReadonlyMap<string, QueryParameter>;
  /** Path parameters declared as integers (IDs). */
  integerPath: readonly string[];
  /** The request body's schema (over its media types), undefined without a body. */
  body: ValueReader | undefined;
}

const ANY: ValueReader = { kind: 'any' };
const TOKEN = 'private_token';

/** The types a schema allows, without null, through `type`, `enum`, `oneOf`/`anyOf` and `allOf`. */
function readerOf(spec: Json, schema: unknown, depth = 0): ValueReader {
  const resolved = resolve(spec, schema);
  if (!isObject(resolved) || depth > 16) return ANY;
  const parts: ValueReader[] = [];
  const type = resolved.type;
  const types = (Array.isArray(type) ? type : type === undefined ? [] : [type]).filter((t) => t !== 'null');
  if (types.length > 1) return ANY;
  if (types[0] === 'object' || isObject(resolved.properties) || Array.isArray(resolved.allOf)) {
    const properties = new Map<string, ValueReader>();
    const required = new Set<string>(Array.isArray(resolved.required) ? (resolved.required as string[]) : []);
    if (isObject(resolved.properties))
      for (const [name, property] of Object.entries(resolved.properties))
        properties.set(name, readerOf(spec, property, depth + 1));
    for (const part of Array.isArray(resolved.allOf) ? resolved.allOf : []) {
      const reader = readerOf(spec, part, depth + 1);
      if (reader.kind !== 'object') {
        parts.push(reader);
        continue;
      }
      for (const [name, property] of reader.properties) properties.set(name, property);
      for (const name of reader.required) required.add(name);
    }
    if (properties.size > 0 || types[0] === 'object') return { kind: 'object', properties, required };
  }
  if (types[0] === 'array') return { kind: 'array', items: readerOf(spec, resolved.items, depth + 1) };
  if (types[0] !== undefined) return { kind: types[0] as 'boolean' | 'integer' | 'number' | 'string' };
  // No type of its own: one variant besides null (`oneOf: [$ref, {type: 'null'}]`), or an `allOf` of one.
  const variants = [
    ...(Array.isArray(resolved.oneOf) ? resolved.oneOf : []),
    ...(Array.isArray(resolved.anyOf) ? resolved.anyOf : []),
  ].filter((variant) => {
    const v = resolve(spec, variant);
    return !(isObject(v) && v.type === 'null');
  });
  if (variants.length === 1) return readerOf(spec, variants[0], depth + 1);
  if (variants.length === 0 && parts.length === 1 && parts[0]) return parts[0];
  return variants.length > 1 ? unionOfObjects(variants.map((v) => readerOf(spec, v, depth + 1))) : ANY;
}

/**
 * Variants that are all objects (`allowed_to_push` items: a user, a group or an access level) read as one
 * object of all their properties, none required (a property two variants read differently is left alone).
 */
function unionOfObjects(variants: ValueReader[]): ValueReader {
  const properties = new Map<string, ValueReader>();
  for (const variant of variants) {
    if (variant.kind !== 'object') return ANY;
    for (const [name, property] of variant.properties) {
      const known = properties.get(name);
      properties.set(name, known === undefined || known.kind === property.kind ? property : ANY);
    }
  }
  return { kind: 'object', properties, required: new Set() };
}

function bodyReaderOf(spec: Json, operation: Json): ValueReader | undefined {
  const requestBody = resolve(spec, operation.requestBody);
  if (!isObject(requestBody) || !isObject(requestBody.content)) return undefined;
  // The media types of one operation share their fields (JSON and form have the same schema; multipart adds
  // files): the first object schema with properties speaks for them all.
  for (const media of Object.values(requestBody.content)) {
    if (!isObject(media)) continue;
    const reader = readerOf(spec, media.schema);
    if (reader.kind === 'object') return reader;
  }
  return ANY;
}

/** Every operation of the document by the key of its matched route (`METHOD /base/path/{template}`). */
export function indexReadings(
  spec: Json,
  operations: readonly OperationOfDocument[],
): OperationIndex<OperationReading> {
  return new OperationIndex(operations, (entry) => {
    const query = new Map<string, QueryParameter>();
    const integerPath: string[] = [];
    for (const parameter of entry.parameters) {
      if (typeof parameter.name !== 'string') continue;
      const reader = readerOf(spec, parameter.schema);
      if (parameter.in === 'query')
        query.set(parameter.name, { required: parameter.required === true, reader });
      if (parameter.in === 'path' && reader.kind === 'integer') integerPath.push(parameter.name);
    }
    return { query, integerPath, body: bodyReaderOf(spec, entry.operation) };
  });
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A value read as `reader` says, as Grape coerces it; a value Grape could not read either is returned as it
 * is, for the validator to refuse with the parameter's name.
 */
export function readValue(value: unknown, reader: ValueReader): unknown {
  switch (reader.kind) {
    case 'boolean':
      return toBoolean(value) ?? value;
    case 'integer':
      if (typeof value === 'string' && INTEGER.test(value)) {
        const number = Number(value);
        return Number.isSafeInteger(number) ? number : value;
      }
      return value;
    case 'number':
      return typeof value === 'string' && NUMBER.test(value) ? Number(value) : value;
    case 'string':
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
    case 'array':
      return Array.isArray(value) ? value.map((item) => readValue(item, reader.items)) : value;
    case 'object':
      if (isObject(value)) readObject(value, reader);
      return value;
    default:
      return value;
  }
}

/** Reads an object's known properties in place; a null of an optional one is dropped ("not given"). */
function readObject(
  object: Json,
  reader: { properties: ReadonlyMap<string, ValueReader>; required: ReadonlySet<string> },
): void {
  for (const name of Object.keys(object)) {
    const property = reader.properties.get(name);
    if (property === undefined) continue;
    const value = object[name];
    if (value === null) {
      if (!reader.required.has(name)) delete object[name];
      continue;
    }
    object[name] = readValue(value, property);
  }
}

/**
 * The query string with what GitLab ignores left out (undeclared names, empty values of optional
 * parameters) and booleans in their canonical spelling; undefined when it is the same.
 */
export function readQueryString(
  search: string,
  query: ReadonlyMap<string, QueryParameter>,
): string[] | undefined {
  let changed = false;
  const kept: string[] = [];
  for (const pair of queryPairs(search)) {
    const name = topLevelName(pair);
    if (name === TOKEN) {
      kept.push(pair);
      continue;
    }
    const parameter = query.get(name);
    const equals = pair.indexOf('=');
    const rawValue = equals === -1 ? '' : pair.slice(equals + 1);
    if (parameter === undefined || (rawValue === '' && !parameter.required)) {
      changed = true;
      continue;
    }
    const isBoolean =
      parameter.reader.kind === 'boolean' ||
      (parameter.reader.kind === 'array' && parameter.reader.items.kind === 'boolean');
    const spelled = isBoolean ? toBoolean(decodeComponent(rawValue)) : undefined;
    if (spelled !== undefined && rawValue !== String(spelled)) {
      kept.push(`${equals === -1 ? pair : pair.slice(0, equals)}=${spelled}`);
      changed = true;
      continue;
    }
    kept.push(pair);
  }
  return changed ? kept : undefined;
}

/**
 * The middleware: it runs after the route index matched the operation, multipart bodies were read and
 * parameterCarriers put every parameter where the operation declares it, before request validation.
 */
export function grapeParameters(index: OperationIndex<OperationReading>): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const matched = matchedOperation(req);
    const operation = matched === undefined ? undefined : index.get(matched.operation.key);
    if (operation === undefined) return next();

    const pathParams = matched?.params;
    for (const name of operation.integerPath) {
      const value = pathParams?.[name];
      if (
        value !== undefined &&
        INTEGER.test(value) &&
        (value.startsWith('-') || !Number.isSafeInteger(Number(value)))
      )
        throw notFound();
    }

    // Query values stay text: the validator coerces them to the parameters' types (booleans once spelled
    // `true`/`false` here).
    const { path, search } = splitUrl(req.url);
    if (search !== '') {
      const kept = readQueryString(search, operation.query);
      if (kept !== undefined) {
        req.url = withQuery(path, kept);
        keepParsedQuery(req);
      }
    }

    // The validator refuses reserved characters sent unencoded in the query as sent (`originalUrl`), `+`
    // among them; in a query `+` is a space (what GitLab clients send for `search=a b`), given as `%20`.
    const mark = req.originalUrl.indexOf('?');
    if (mark !== -1 && req.originalUrl.includes('+', mark))
      req.originalUrl = `${req.originalUrl.slice(0, mark)}${req.originalUrl.slice(mark).replace(/\+/g, '%20')}`;

    if (operation.body?.kind === 'object' && isObject(req.body)) readObject(req.body, operation.body);
    next();
  };
}
