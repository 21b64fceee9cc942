// Request (and optionally response) validation against the bundled spec, with the adjustments the API needs.
import { readFileSync } from 'node:fs';
import { bundledSpecJsonPath } from '@collab/spec';
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { grapeParameters, indexReadings } from './grapeParameters.js';
import { indexOperations, parameterCarriers } from './parameterCarriers.js';
import { onlyWithBody } from './series.js';

export function loadBundledSpec(): Record<string, unknown> {
  return JSON.parse(readFileSync(bundledSpecJsonPath, 'utf8')) as Record<string, unknown>;
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
 * The document the v4 validator sees: the v4 paths only, under the fixed base path `/api/v4` (the spec's
 * server URL starts with a `{base_url}` variable, which the validator cannot turn into a base path).
 * The SCIM paths, which declare their own server, are validated by their own instance.
 */
export function apiDocumentFor(
  spec: Record<string, unknown>,
  basePath: string,
  keepPath: (path: string, item: Record<string, unknown>) => boolean,
): Record<string, unknown> {
  const copy = structuredClone(spec) as Record<string, unknown> & {
    paths: Record<string, Record<string, unknown>>;
  };
  copy.servers = [{ url: basePath }];
  copy.paths = Object.fromEntries(
    Object.entries(copy.paths)
      .filter(([path, item]) => keepPath(path, item))
      .map(([path, item]) => {
        const { servers: _servers, ...rest } = item;
        return [path, rest];
      }),
  );
  return copy;
}

export function hasOwnServers(_path: string, item: Record<string, unknown>): boolean {
  return Array.isArray(item.servers);
}

export interface ValidatorOptions {
  apiSpec: Record<string, unknown>;
  validateResponses: boolean;
}

/**
 * The validator's middlewares, with parameterCarriers (seed convention 3) and grapeParameters (parameters read
 * as GitLab reads them) placed after its route lookup and multipart parsing and before its request
 * validation: both read the matched route (`req.openapi`) and must see the multipart fields, and the
 * validator must see the parameters where the spec declares them, of the types it declares. Found by the name of the validator's middleware, checked at start.
 */
export function openApiValidator(options: ValidatorOptions): RequestHandler[] {
  // Indexed before the validator sees (and mutates) the document.
  const servers = options.apiSpec.servers;
  const first: unknown = Array.isArray(servers) ? servers[0] : undefined;
  const basePath =
    typeof first === 'object' && first !== null && 'url' in first && typeof first.url === 'string'
      ? first.url
      : '';
  const carriers = parameterCarriers(indexOperations(options.apiSpec, basePath));
  const reading = grapeParameters(indexReadings(options.apiSpec, basePath));
  const chain = withoutIdleSteps(validatorMiddlewares(options));
  const at = chain.findIndex((middleware) => middleware.name === 'requestMiddleware');
  if (at === -1)
    throw new Error('express-openapi-validator: no requestMiddleware to put parameterCarriers before');
  return [...chain.slice(0, at), carriers, reading, ...chain.slice(at)];
}

/**
 * The validator's chain without the steps that do nothing for a request of this API; each still costs a
 * promise hop and a closure per request (together about 5% of a small read's CPU time):
 * - the security step: `validateSecurity` is off (authentication is ours, core/http/auth.ts);
 * - the path parameter step: it installs `app.param` overrides, which apply only to routes of the
 *   application's own router, and the areas' routes are reached through areaDispatcher, which sets
 *   `req.params` from the route's own match;
 * - the multipart step, for a request without a body (nothing for multer to read).
 * Found by the validator's names for them, checked at start so that an upgrade cannot drop a step silently.
 */
function withoutIdleSteps(chain: RequestHandler[]): RequestHandler[] {
  const named = (name: string) => {
    const step = chain.find((middleware) => middleware.name === name);
    if (!step) throw new Error(`express-openapi-validator: no ${name} in its chain`);
    return step;
  };
  const idle = [named('securityMiddleware'), named('pathParamsMiddleware')];
  const multipart = named('multipartMiddleware');
  return chain
    .filter((middleware) => !idle.includes(middleware))
    .map((middleware): RequestHandler => (middleware === multipart ? onlyWithBody(multipart) : middleware));
}

function validatorMiddlewares(options: ValidatorOptions): RequestHandler[] {
  // Route lookup: patches/express-openapi-validator@5.6.2.patch compiles the spec's routes once into an index
  // (5.6 compiled and tried every route on every request, a quarter of the CPU time of a read).
  return OpenApiValidator.middleware({
    // The validator mutates the document it is given; apiDocumentFor hands it a copy.
    apiSpec: options.apiSpec as never,
    // Bodies are not coerced (grapeParameters reads them as Grape does; the validator's coercion made a null
    // false, "" or 0). Query and path values are always coerced by the validator, from text.
    validateRequests: { coerceTypes: false, allowUnknownQueryParameters: false },
    validateResponses: options.validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: false,
    fileUploader: { limits: { fileSize: 512 * 1024 * 1024 } },
  }) as unknown as RequestHandler[];
}
