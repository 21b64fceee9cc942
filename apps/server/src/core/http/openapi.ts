// Request (and optionally response) validation against the bundled spec, with the adjustments the API needs.
import { readFileSync } from 'node:fs';
import { bundledSpecJsonPath } from '@collab/spec';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';

export function loadBundledSpec(): Record<string, unknown> {
  return JSON.parse(readFileSync(bundledSpecJsonPath, 'utf8')) as Record<string, unknown>;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Seed convention 3: parameters may arrive in the query string, as form fields or as a JSON body. The spec
 * documents writes as request bodies, so a write that carries its parameters in the query string is turned
 * into the equivalent form body before validation (the token stays in the query).
 */
export function queryParametersAsBody(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = req.headers['content-type'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!WRITE_METHODS.has(req.method) || hasBody) {
    next();
    return;
  }
  // req.query is parsed by the extended parser, so `upload[url]=…` arrives as { upload: { url } }.
  const { private_token: token, ...body } = req.query as Record<string, unknown>;
  if (Object.keys(body).length === 0) {
    next();
    return;
  }
  const url = new URL(req.url, 'http://x');
  req.url =
    typeof token === 'string' ? `${url.pathname}?private_token=${encodeURIComponent(token)}` : url.pathname;
  req.headers['content-type'] = 'application/x-www-form-urlencoded';
  req.body = body;
  next();
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

export function openApiValidator(options: ValidatorOptions): RequestHandler[] {
  // Route lookup: patches/express-openapi-validator@5.6.2.patch compiles the spec's routes once into an index
  // (5.6 compiled and tried every route on every request, a quarter of the CPU time of a read).
  return OpenApiValidator.middleware({
    // The validator mutates the document it is given; apiDocumentFor hands it a copy.
    apiSpec: options.apiSpec as never,
    validateRequests: { coerceTypes: true, allowUnknownQueryParameters: false },
    validateResponses: options.validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: false,
    fileUploader: { limits: { fileSize: 512 * 1024 * 1024 } },
  }) as unknown as RequestHandler[];
}
