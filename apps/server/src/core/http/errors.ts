// One error type for the whole server and the handler that renders it in the spec's `Error` shape.

import type { components } from '@collab/spec/schema';
import type { ErrorRequestHandler } from 'express';
import { type FieldLimits, matchedOperation } from './matchedOperation.js';

const NO_LIMITS: FieldLimits = new Map();

export type ErrorBody = components['schemas']['Error'];

/** An error with an HTTP status and a body in the API's `Error` shape. Services throw it; http renders it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(typeof body.message === 'string' ? body.message : (body.error ?? `HTTP ${status}`));
  }
}

export const badRequest = (message: string): ApiError => new ApiError(400, { message });
export const missingParameter = (name: string): ApiError =>
  new ApiError(400, { error: `${name} is missing` });
/** GitLab's `{"error": "name is invalid"}`, with the reason after a colon when there is one to give. */
export const invalidParameter = (name: string, reason?: string): ApiError =>
  new ApiError(400, { error: reason ? `${name} is invalid: ${reason}` : `${name} is invalid` });
export const unauthorized = (): ApiError => new ApiError(401, { message: '401 Unauthorized' });
export const forbidden = (message = '403 Forbidden'): ApiError => new ApiError(403, { message });
export const notFound = (what = ''): ApiError =>
  new ApiError(404, { message: what ? `404 ${what} Not Found` : '404 Not Found' });
export const conflict = (message: string): ApiError => new ApiError(409, { message });
export const insufficientScope = (needed: string): ApiError =>
  new ApiError(403, {
    error: 'insufficient_scope',
    error_description: `The request requires higher privileges than provided by the access token: ${needed}.`,
  });

/** What the validator gives for a refused request (its documented ValidationError: path and keyword). */
interface ValidatorError {
  status?: number;
  message?: string;
  errors?: { path?: string; message?: string; errorCode?: string }[];
}

type ValidatorProblem = NonNullable<ValidatorError['errors']>[number];

/** The schema keyword a problem breaks (`required`), from the validator's `errorCode` (`required.openapi.validation`). */
const keywordOf = (problem: ValidatorProblem): string =>
  (problem.errorCode ?? '').replace(/\.openapi\.validation$/, '');

/**
 * The parameter a problem's path names, as Grape names it: `/body/title` → `title`, `/query/ref` → `ref`, a
 * nested one in bracket form, `/body/upload/url` → `upload[url]`, `/body/files/0/content` → `files[0][content]`.
 */
const nameOf = (path: string): string => {
  const [first = '', ...rest] = path.replace(/^\/?(query|body|params|path|headers)\//, '').split('/');
  return first + rest.map((segment) => `[${segment}]`).join('');
};

/**
 * GitLab's words for a refused request, as its two layers give them:
 * - Grape's parameter checks (presence, types, values, "at least one of"): `{"error": "ref is missing"}`;
 * - the models' validations of a field's text (format, length) on a write: `{"message": {"title": ["is too
 *   long (maximum is 255 characters)"]}}`.
 * The limits come from the operation's own schema (the validator gives a problem's path and keyword).
 */
function describeValidatorError(err: ValidatorError, limits: FieldLimits): ErrorBody {
  const problems = err.errors ?? [];
  const first = problems[0];
  if (!first?.path) return { error: err.message ?? 'invalid request' };
  const name = nameOf(first.path);
  // `anyOf` of required properties, or minProperties: Grape's `at_least_one_of`.
  const atLeastOne = problems.find(
    (p) => p.path === '/body' && ['anyOf', 'minProperties'].includes(keywordOf(p)),
  );
  if (atLeastOne) {
    const names = problems
      .filter((p) => keywordOf(p) === 'required' && p.path?.startsWith('/body/'))
      .map((p) => (p.path ?? '').slice('/body/'.length));
    return {
      error: `${names.length > 0 ? `${names.join(', ')} are missing, ` : ''}at least one parameter must be provided`,
    };
  }
  // The validator's path of a missing property ends with the property's name.
  if (keywordOf(first) === 'required') return { error: `${name} is missing` };
  const field = /^\/body\/([^/]+)$/.exec(first.path)?.[1];
  const modelMessage = field === undefined ? undefined : modelValidationMessage(first, limits.get(field));
  if (field !== undefined && modelMessage !== undefined) return { message: { [field]: [modelMessage] } };
  if (keywordOf(first) === 'additionalProperties')
    return { error: `${name} does not have a valid value: ${first.message ?? ''}`.trim() };
  return { error: `${name} is invalid: ${first.message ?? ''}`.trim() };
}

/** A model's message for a field whose text breaks its format or length, as ActiveRecord words it. */
function modelValidationMessage(
  problem: ValidatorProblem,
  limits: { maxLength?: number; minLength?: number } | undefined,
): string | undefined {
  switch (keywordOf(problem)) {
    case 'pattern':
    case 'format':
      return 'is invalid';
    case 'maxLength':
      return limits?.maxLength === undefined
        ? 'is too long'
        : `is too long (maximum is ${limits.maxLength} characters)`;
    case 'minLength':
      return limits?.minLength === undefined || limits.minLength === 1
        ? "can't be blank"
        : `is too short (minimum is ${limits.minLength} characters)`;
    default:
      return undefined;
  }
}

/** What the client did wrong, for the few failures of the request's framing (not of one parameter). */
function framingError(err: { type?: unknown; message?: unknown }): string | undefined {
  // A `%` that does not start a valid UTF-8 escape, in a path parameter (the route index, Express's routers).
  if (err instanceof URIError) return 'the URL path is not valid percent-encoding';
  // body-parser's error types.
  if (err.type === 'entity.parse.failed') return 'the request body is not valid JSON';
  if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported')
    return `the request body's encoding is not supported: ${String(err.message ?? '')}`.trim();
  return undefined;
}

/** The `Allow` value for the methods the validator names (`get, put`): upper case, HEAD with GET. */
export function allowedMethods(named: unknown): string | undefined {
  if (typeof named !== 'string' || named.trim() === '') return undefined;
  const methods = named
    .split(',')
    .map((method) => method.trim().toUpperCase())
    .filter(Boolean);
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  return [...new Set(methods)].join(', ');
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (err instanceof ApiError) {
    res.status(err.status).json(err.body);
    return;
  }
  const framing = err && typeof err === 'object' ? framingError(err) : undefined;
  if (framing) {
    res.status(400).json({ error: framing });
    return;
  }
  const status = typeof err?.status === 'number' ? err.status : 500;
  if (status === 404) {
    res.status(404).json({ message: '404 Not Found' });
  } else if (status === 405) {
    // RFC 9110: a 405 names the methods the path has (the validator lists the spec's; HEAD goes with GET).
    const allow = allowedMethods(err?.headers?.Allow);
    if (allow) res.set('Allow', allow);
    res.status(405).json({ message: '405 Method Not Allowed' });
  } else if (status === 415) {
    // Documented as a bad request: every operation that takes parameters says which media types it accepts.
    res.status(400).json({ error: `unsupported content type: ${err.message ?? ''}`.trim() });
  } else if (status === 413) {
    res.status(413).json({ message: '413 Request Entity Too Large' });
  } else if (status >= 400 && status < 500) {
    res
      .status(400)
      .json(describeValidatorError(err as ValidatorError, matchedOperation(req)?.bodyLimits ?? NO_LIMITS));
  } else {
    // A server bug (response validation failures in development and tests land here too): the detail goes
    // to the log, never to the client, whose body may carry git's command lines and object IDs otherwise.
    // The URL may carry the caller's token (`private_token`): it never reaches the log.
    console.error(
      `${req.method} ${req.originalUrl.replace(/([?&]private_token=)[^&]*/gi, '$1[FILTERED]')}:`,
      err,
    );
    res.status(500).json({ message: '500 Internal Server Error' });
  }
};
