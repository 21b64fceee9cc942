// Errors of the SCIM API in RFC 7644's shape (section 3.12), for everything under /api/scim/v2: the
// service's own (ScimError), the validator's refusals, malformed bodies and unknown paths.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, allowedMethods } from '../../core/http/errors.js';
import type { Schemas } from '../../core/http/types.js';

export type ScimErrorBody = Schemas['ScimError'];
type ScimType = NonNullable<ScimErrorBody['scimType']>;

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
/** The media type of every SCIM answer (RFC 7644, section 8.1). */
export const SCIM_MEDIA_TYPE = 'application/scim+json';

/** An error the SCIM services throw: its status, `detail` and, where RFC 7644 has one, `scimType`. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = 'ScimError';
  }

  get body(): ScimErrorBody {
    return scimErrorBody(this.status, this.detail, this.scimType);
  }
}

export function scimErrorBody(status: number, detail: string, scimType?: ScimType): ScimErrorBody {
  return {
    schemas: [SCIM_ERROR_SCHEMA],
    detail,
    status: String(status),
    ...(scimType ? { scimType } : {}),
  };
}

export const scimUnauthorized = (): ScimError => new ScimError(401, 'Unauthorized');
export const scimNotFound = (detail: string): ScimError => new ScimError(404, detail);
export const scimBadRequest = (detail: string, scimType?: ScimType): ScimError =>
  new ScimError(400, detail, scimType);
export const scimConflict = (detail: string): ScimError => new ScimError(409, detail, 'uniqueness');

interface ValidatorError {
  status?: unknown;
  type?: unknown;
  message?: unknown;
  headers?: { Allow?: unknown };
  errors?: { path?: string; message?: string }[];
}

/** The status and body of any error raised under /api/scim/v2. */
export function scimErrorOf(err: unknown): { status: number; body: ScimErrorBody } | undefined {
  if (err instanceof ScimError) return { status: err.status, body: err.body };
  if (err instanceof ApiError) {
    const detail = typeof err.body.message === 'string' ? err.body.message : err.message;
    return { status: err.status, body: scimErrorBody(err.status, detail) };
  }
  if (err instanceof URIError) return bad('The URL path is not valid percent-encoding', 'invalidSyntax');
  const e = (err ?? {}) as ValidatorError;
  if (e.type === 'entity.parse.failed') return bad('The request body is not valid JSON', 'invalidSyntax');
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
    return bad(`The request body's encoding is not supported: ${String(e.message ?? '')}`, 'invalidSyntax');
  const status = typeof e.status === 'number' ? e.status : 500;
  const first = e.errors?.[0];
  const said = first?.message ?? (typeof e.message === 'string' ? e.message : '');
  if (/malformed uri|failed to decode param/i.test(said))
    return bad('The URL path is not valid percent-encoding', 'invalidSyntax');
  if (status === 404) return { status, body: scimErrorBody(404, 'Resource not found') };
  if (status === 405) return { status, body: scimErrorBody(405, 'Method not allowed') };
  if (status === 413) return { status, body: scimErrorBody(413, 'Request entity too large') };
  if (status === 415) return bad(`Unsupported content type: ${said}`.trim(), 'invalidSyntax');
  if (status >= 400 && status < 500) {
    const where = (first?.path ?? '').replace(/^\//, '').replace(/\//g, '.');
    const detail = where ? `${where}: ${said}` : said || 'Invalid request';
    return bad(detail, where.startsWith('body') ? 'invalidSyntax' : 'invalidValue');
  }
  return undefined;
}

function bad(detail: string, scimType: ScimType) {
  return { status: 400, body: scimErrorBody(400, detail, scimType) };
}

/** Renders an error of a SCIM request in the SCIM shape; a server bug is a SCIM 500 (and a log line). */
export const scimErrorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const known = scimErrorOf(err);
  if (known?.status === 405) {
    const allow = allowedMethods((err as ValidatorError).headers?.Allow);
    if (allow) res.set('Allow', allow);
  }
  if (known) {
    res.status(known.status).type(SCIM_MEDIA_TYPE).json(known.body);
    return;
  }
  // The bearer token travels in a header, never in the URL: the URL may be logged as it is.
  console.error(`${req.method} ${req.originalUrl}:`, err);
  res.status(500).type(SCIM_MEDIA_TYPE).json(scimErrorBody(500, 'Internal server error'));
};

/** A SCIM path no operation serves (the validator names the unknown ones first; this is the backstop). */
export const scimNotFoundHandler: RequestHandler = (_req, _res, next) => {
  next(scimNotFound('Resource not found'));
};
