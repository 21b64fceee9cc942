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

// A property of the request under a symbol of this module: a WeakMap entry per request cost more (its
// insertion and the collector's work on it), and the match lives exactly as long as its request.
const MATCHED = Symbol('matched operation');

type MatchedRequest = Request & { [MATCHED]?: MatchedOperation };

export function rememberOperation(req: Request, match: MatchedOperation): void {
  (req as MatchedRequest)[MATCHED] = match;
}

export function matchedOperation(req: Request): MatchedOperation | undefined {
  return (req as MatchedRequest)[MATCHED];
}

/** The matched operation as `METHOD /base/path/{template}`, the key of the request readers' indexes. */
export function matchedRoute(req: Request): string | undefined {
  return (req as MatchedRequest)[MATCHED]?.operation.key;
}
