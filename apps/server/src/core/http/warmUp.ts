// Warming an operation's validation up without a client: a request and a response that only the validator
// sees, made as Express makes them (objects on the application's request and response prototypes), never
// passed to a handler and never written to a socket.
import { ServerResponse } from 'node:http';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { IndexedOperation } from './routeIndex.js';

/**
 * Runs the operation's validator on a request of it (every path parameter `0`, no query, an empty JSON body
 * where the operation takes one): refused or not, its validation compiles the operation's request schemas.
 * With response validation, a request the validator accepted has its response checked when `res.json` is
 * called: one empty body, sent nowhere, compiles the validation of every response of the operation.
 */
export async function warmUpOperation(
  app: Express,
  basePath: string,
  operation: IndexedOperation,
  validate: RequestHandler,
  validateResponses: boolean,
): Promise<void> {
  const req = warmUpRequest(app, basePath, operation);
  const res = warmUpResponse(app, req);
  const accepted = await new Promise<boolean>((resolve) => {
    validate(req, res, (error?: unknown) => resolve(error === undefined || error === null));
  });
  if (!accepted || !validateResponses) return;
  try {
    res.json({});
  } catch {
    // A body the response validator refuses: its schemas are compiled all the same.
  }
}

function warmUpRequest(app: Express, basePath: string, operation: IndexedOperation): Request {
  const url = `${basePath}${operation.template.replace(/\{[^}]+\}/g, '0')}`;
  const withoutBody = operation.method === 'GET' || operation.method === 'HEAD';
  const req = Object.create(app.request) as Request;
  Object.assign(req, {
    app,
    method: operation.method === 'HEAD' ? 'GET' : operation.method,
    url,
    originalUrl: url,
    baseUrl: '',
    headers: withoutBody ? {} : { 'content-type': 'application/json' },
    query: {},
    body: withoutBody ? undefined : {},
    params: {},
  });
  return req;
}

/** A response with no socket: what is sent to it stays in memory and is dropped with it. */
function warmUpResponse(app: Express, req: Request): Response {
  const res = new ServerResponse(req) as unknown as Response;
  Object.setPrototypeOf(res, app.response);
  Object.assign(res, { app, req, locals: {} });
  return res;
}
