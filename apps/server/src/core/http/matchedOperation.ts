// The operation a request was matched to (by the route index, before the request readers and the
// validator run), for the steps after the match: the request readers, the handler and the error handler.
import type { Request } from 'express';
import type { IndexedOperation } from './routeIndex.js';

/** The limits of a request body's text fields (`maxLength`, `minLength`), for GitLab's model messages. */
export type FieldLimits = ReadonlyMap<string, { maxLength?: number; minLength?: number }>;

export interface MatchedOperation {
  operation: IndexedOperation;
  /** The path parameters, decoded. */
  params: Record<string, string>;
  bodyLimits: FieldLimits;
}

const matched = new WeakMap<Request, MatchedOperation>();

export function rememberOperation(req: Request, match: MatchedOperation): void {
  matched.set(req, match);
}

export function matchedOperation(req: Request): MatchedOperation | undefined {
  return matched.get(req);
}

/** The matched operation as `METHOD /base/path/{template}`, the key of the request readers' indexes. */
export function matchedRoute(req: Request): string | undefined {
  return matched.get(req)?.operation.key;
}
