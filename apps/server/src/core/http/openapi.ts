// The validated API: the route index matches a request to its operation, the request readers put and read
// its parameters as GitLab does, express-openapi-validator (through its public options) validates it, and the
// handler registered under the operation's operationId serves it.
import { readFileSync } from 'node:fs';
import { serverSpecJsonPath } from '@collab/spec';
import type { Express, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { grapeParameters, indexReadings } from './grapeParameters.js';
import { type FieldLimits, matchedOperation, rememberOperation } from './matchedOperation.js';
import { multipartBodies } from './multipart.js';
import type { AnyOperationHandler } from './operations.js';
import { indexOperations, parameterCarriers } from './parameterCarriers.js';
import { type IndexedOperation, RouteIndex } from './routeIndex.js';
import { inSeries } from './series.js';
import {
  isObject,
  type Json,
  METHODS,
  OperationIndex,
  type OperationOfDocument,
  operationsOf,
  resolve,
} from './specDocument.js';
import { memoPlanOf, ValidationMemo } from './validationMemo.js';
import { warmUpOperation } from './warmUp.js';

/**
 * The bundled spec as the server reads it: without descriptions and examples, which nothing of the server reads
 * (spec/scripts/serverDocument.mjs); /openapi.json serves the full document.
 */
export function loadBundledSpec(): Json {
  return JSON.parse(readFileSync(serverSpecJsonPath, 'utf8')) as Json;
}

/**
 * express-openapi-validator does not route HEAD to an operation on every path (issue #874) and answers 500
 * when it cannot: a HEAD request is validated as the GET of the same path, which has the same parameters.
 */
export function headAsGet(validate: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'HEAD') return validate(req, res, next);
    req.method = 'GET';
    validate(req, res, (error?: unknown) => {
      req.method = 'HEAD';
      next(error);
    });
  };
}

/**
 * The document of one base path: its paths only, under the fixed base path (the spec's server URL starts
 * with a `{base_url}` variable, which the validator cannot turn into a base path). The SCIM paths, which
 * declare their own server, are served by their own chain.
 */
export function apiDocumentFor(
  spec: Json,
  basePath: string,
  keepPath: (path: string, item: Json) => boolean,
): Json {
  // A shallow copy: the document is only read here and by the request readers, and each validator instance
  // is given its own deep copy of its part (validatorMiddlewares).
  const paths = isObject(spec.paths) ? spec.paths : {};
  return {
    ...spec,
    servers: [{ url: basePath }],
    paths: Object.fromEntries(
      Object.entries(paths)
        .filter((entry): entry is [string, Json] => isObject(entry[1]) && keepPath(entry[0], entry[1]))
        .map(([path, item]) => {
          const { servers: _servers, ...rest } = item;
          return [path, rest];
        }),
    ),
  };
}

export function hasOwnServers(_path: string, item: Json): boolean {
  return Array.isArray(item.servers);
}

/** The operationIds of a document, for the start check (without resolving parameters as operationsOf does). */
export function operationIdsOf(spec: Json): string[] {
  const ids: string[] = [];
  const paths = isObject(spec.paths) ? spec.paths : {};
  for (const item of Object.values(paths)) {
    const pathItem = resolve(spec, item);
    if (!isObject(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (isObject(operation)) ids.push(String(operation.operationId));
    }
  }
  return ids;
}

/** The base path a document's first server names (`/api/v4`). */
function basePathOf(spec: Json): string {
  const servers = spec.servers;
  const first: unknown = Array.isArray(servers) ? servers[0] : undefined;
  return isObject(first) && typeof first.url === 'string' ? first.url : '';
}

/** Every `$ref` under a value of the document, once. */
function collectRefs(spec: Json, value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(spec, item, into);
    return;
  }
  if (!isObject(value)) return;
  if (typeof value.$ref === 'string' && !into.has(value.$ref)) {
    into.add(value.$ref);
    collectRefs(spec, resolve(spec, { $ref: value.$ref }), into);
  }
  for (const [key, item] of Object.entries(value)) if (key !== '$ref') collectRefs(spec, item, into);
}

/**
 * The document with some of the paths and only the components they reach. The validator tries every path of
 * its document on every request, and compiles each operation's schemas together with every component of its
 * document: a small document keeps both cheap.
 */
export function documentForPaths(spec: Json, templates: readonly string[]): Json {
  const paths = isObject(spec.paths) ? spec.paths : {};
  const refs = new Set<string>();
  for (const template of templates) collectRefs(spec, paths[template], refs);
  const components: Record<string, Json> = {};
  const all = isObject(spec.components) ? spec.components : {};
  if (isObject(all.securitySchemes)) components.securitySchemes = all.securitySchemes;
  for (const ref of refs) {
    const [, , kind, name] = ref.split('/');
    if (kind === undefined || name === undefined) continue;
    const ofKind = all[kind];
    if (!isObject(ofKind)) continue;
    components[kind] ??= {};
    (components[kind] as Json)[name] = ofKind[name];
  }
  return {
    ...spec,
    paths: Object.fromEntries(templates.map((template) => [template, paths[template]])),
    components,
  };
}

/** The most paths one validator instance serves. */
const PATHS_PER_VALIDATOR = 8;

/**
 * The paths of the document in groups that share one validator instance: the paths of one tag (an area of the
 * API, whose operations reach the same components), in document order, at most PATHS_PER_VALIDATOR together,
 * and never a path with a path below it (one its route starts with: `/things/{id}` and `/things/{id}/parts`).
 * Each instance compiles the OpenAPI meta-schema once, a cost one instance per path paid for every path; one
 * instance for a whole tag made the compilation of each operation slower, as its document grows. An
 * instance finds a request's route by compiling its routes one after the other, in its own order (a route
 * before the routes it starts), until one matches: a resource grouped with its sub-resources was found only
 * after all of them, a collection after all of its items' paths.
 */
export function validatorGroups(spec: Json): string[][] {
  const paths = isObject(spec.paths) ? spec.paths : {};
  const byTag = new Map<string, string[][]>();
  for (const [template, item] of Object.entries(paths)) {
    const tag = firstTagOf(resolve(spec, item));
    const groups = byTag.get(tag) ?? [];
    byTag.set(tag, groups);
    const fits = groups.find(
      (group) =>
        group.length < PATHS_PER_VALIDATOR && !group.some((other) => onePrefixesTheOther(template, other)),
    );
    if (fits) fits.push(template);
    else groups.push([template]);
  }
  return [...byTag.values()].flat();
}

/** Whether one path template starts with the other, as the validator orders its routes. */
function onePrefixesTheOther(a: string, b: string): boolean {
  return a.startsWith(b) || b.startsWith(a);
}

function firstTagOf(pathItem: unknown): string {
  if (!isObject(pathItem)) return '';
  for (const operation of Object.values(pathItem)) {
    if (isObject(operation) && Array.isArray(operation.tags) && typeof operation.tags[0] === 'string')
      return operation.tags[0];
  }
  return '';
}

export interface ApiOptions {
  /** The document of one base path (apiDocumentFor). */
  apiSpec: Json;
  /** The handler of every operation of the document, by operationId. */
  handlers: ReadonlyMap<string, AnyOperationHandler>;
  /** Validate every JSON response against the spec (development). */
  validateResponses: boolean;
}

/** An error of the route lookup: 404 for a path no operation has, 405 (with `Allow`) for another method. */
export class RouteError extends Error {
  constructor(
    readonly status: 404 | 405,
    readonly headers: { Allow?: string } = {},
  ) {
    super(status === 404 ? '404 Not Found' : '405 Method Not Allowed');
  }
}

export interface OperationsApi {
  /** A request below the base path goes to its operation's steps; other requests pass by. */
  middleware: RequestHandler;
  /**
   * Makes every group's validator and compiles every operation's request validation (and response
   * validation, when responses are validated), one operation at a time, awaiting `beforeEach` before each
   * (the server waits for a quiet moment there): after it, a first request costs what a second does.
   */
  warmUp(app: Express, beforeEach: () => Promise<void>): Promise<void>;
}

/**
 * The steps of one base path: a request below it goes to its operation's steps (multipart bodies,
 * parameterCarriers, grapeParameters, the validator of its path, its handler); other requests pass by.
 */
export function operationsApi(options: ApiOptions): OperationsApi {
  // Indexed before the validator sees (and mutates) its copies of the document.
  const spec = options.apiSpec;
  const basePath = basePathOf(spec);
  const index = new RouteIndex(spec, basePath);
  const operations = operationsOf(spec, basePath);
  const carriers = parameterCarriers(indexOperations(spec, operations));
  const reading = grapeParameters(indexReadings(spec, operations));
  const multipart = multipartBodies();
  const limits = fieldLimitsOf(spec, operations);
  const validatorOfPath = new Map<string, RequestHandler>();
  for (const templates of validatorGroups(spec)) {
    const validate = lazyValidator(() =>
      validatorMiddlewares({
        apiSpec: documentForPaths(spec, templates),
        validateResponses: options.validateResponses,
      }),
    );
    for (const template of templates) validatorOfPath.set(template, validate);
  }
  // Response validation runs in the validator's chain: a request that skipped the chain would skip it too.
  const memo = options.validateResponses ? undefined : new ValidationMemo();
  const plans = new OperationIndex(operations, memoPlanOf);
  const steps = new Map<IndexedOperation, RequestHandler>();
  for (const operation of index.operations) {
    const handler = options.handlers.get(operation.operationId);
    if (handler === undefined) throw new Error(`no handler for ${operation.operationId}`);
    const validate = validatorOfPath.get(operation.template);
    if (validate === undefined) throw new Error(`no validator for ${operation.template}`);
    const plan = memo ? plans.get(operation.key) : undefined;
    const validated = memo && plan ? memo.around(validate, plan) : validate;
    steps.set(operation, inSeries([multipart, carriers, reading, validated, serve(handler)]));
  }

  const middleware: RequestHandler = (req, res, next) => {
    const path = req.path;
    if (path !== basePath && !path.startsWith(`${basePath}/`)) return next();
    const match = index.match(req.method, path.slice(basePath.length));
    if (match === undefined) return next(new RouteError(404));
    if (match.kind === 'method') return next(new RouteError(405, { Allow: match.allow.join(', ') }));
    const { operation, params } = match;
    rememberOperation(req, { operation, params, bodyLimits: limits.get(operation.key) ?? new Map() });
    steps.get(operation)?.(req, res, next);
  };

  const warmUp = async (app: Express, beforeEach: () => Promise<void>): Promise<void> => {
    for (const operation of index.operations) {
      const validate = validatorOfPath.get(operation.template);
      if (validate === undefined) continue;
      await beforeEach();
      await warmUpOperation(app, basePath, operation, validate, options.validateResponses);
    }
  };
  return { middleware, warmUp };
}

/**
 * A group's validator, made on the first request to one of its paths: each instance loads its document and
 * builds its Ajv instances, tens of milliseconds of CPU time, which a server starting with every group's
 * would spend before answering anything.
 */
function lazyValidator(make: () => RequestHandler[]): RequestHandler {
  let validate: RequestHandler | undefined;
  return (req, res, next) => {
    validate ??= inSeries(make().map(headAsGet));
    validate(req, res, next);
  };
}

/** The handler, with `req.params` the path parameters as the route index decoded them. */
function serve(handler: AnyOperationHandler): RequestHandler {
  return (req, res) => {
    req.params = matchedOperation(req)?.params ?? {};
    return handler(req, res);
  };
}

/** The `maxLength`/`minLength` of each operation's top-level body properties, by operation key. */
function fieldLimitsOf(spec: Json, operations: readonly OperationOfDocument[]): OperationIndex<FieldLimits> {
  return new OperationIndex(operations, ({ operation }) => {
    const limits = new Map<string, { maxLength?: number; minLength?: number }>();
    const requestBody = resolve(spec, operation.requestBody);
    if (!isObject(requestBody) || !isObject(requestBody.content)) return limits;
    for (const media of Object.values(requestBody.content))
      if (isObject(media)) addLimits(spec, media.schema, limits, 0);
    return limits;
  });
}

function addLimits(
  spec: Json,
  schema: unknown,
  into: Map<string, { maxLength?: number; minLength?: number }>,
  depth: number,
): void {
  const resolved = resolve(spec, schema);
  if (!isObject(resolved) || depth > 8) return;
  if (isObject(resolved.properties))
    for (const [name, property] of Object.entries(resolved.properties)) {
      const limits = limitsOf(spec, property, 0);
      if (limits !== undefined && !into.has(name)) into.set(name, limits);
    }
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const parts = resolved[key];
    if (Array.isArray(parts)) for (const part of parts) addLimits(spec, part, into, depth + 1);
  }
}

/** A property's own text limits, or those of its one variant besides null. */
function limitsOf(
  spec: Json,
  schema: unknown,
  depth: number,
): { maxLength?: number; minLength?: number } | undefined {
  const resolved = resolve(spec, schema);
  if (!isObject(resolved) || depth > 4) return undefined;
  const { maxLength, minLength } = resolved;
  if (typeof maxLength === 'number' || typeof minLength === 'number')
    return {
      ...(typeof maxLength === 'number' ? { maxLength } : {}),
      ...(typeof minLength === 'number' ? { minLength } : {}),
    };
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const parts = resolved[key];
    if (!Array.isArray(parts)) continue;
    for (const part of parts) {
      const found = limitsOf(spec, part, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

interface ValidatorOptions {
  apiSpec: Json;
  validateResponses: boolean;
}

function validatorMiddlewares(options: ValidatorOptions): RequestHandler[] {
  return OpenApiValidator.middleware({
    // The validator mutates the document it is given: each group's document is its own copy.
    apiSpec: structuredClone(options.apiSpec) as never,
    // Bodies are not coerced (grapeParameters reads them as Grape does; the validator's coercion made a null
    // false, "" or 0). Query and path values are always coerced by the validator, from text.
    validateRequests: { coerceTypes: false, allowUnknownQueryParameters: false },
    validateResponses: options.validateResponses ? { removeAdditional: false } : false,
    // Authentication is ours (core/http/auth.ts); multipart bodies are read before (multipart.ts).
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: false,
    fileUploader: false,
  }) as unknown as RequestHandler[];
}
