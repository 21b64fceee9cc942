// Handlers by operation: each operation of the spec is served by the handler registered under its
// `operationId`, typed by the spec (path, query, body and every documented response), and the server refuses
// to start unless every operation has a handler and every handler an operation.
import type { operations } from '@collab/spec/schema';
import type { Request, Response } from 'express';
import type { OperationId, QueryParams, RequestBody } from './types.js';

type PathOf<Op extends OperationId> = operations[Op]['parameters'] extends { path?: infer P }
  ? NonNullable<P>
  : never;

/** Path parameters as the route index gives them: decoded text (`%2F` is a `/` of the value). */
export type PathParams<Op extends OperationId> = [PathOf<Op>] extends [never]
  ? Record<string, never>
  : { [Name in keyof PathOf<Op>]: string };

/** The bodies of a response's media types; a body that is not JSON may be sent as bytes. */
type Contents<R> = R extends { content: infer C }
  ? { [Media in keyof C]: Media extends `${string}json` ? C[Media] : C[Media] | Buffer }[keyof C]
  : never;

type AllContents<Op extends OperationId> = Contents<
  operations[Op]['responses'][keyof operations[Op]['responses']]
>;

/** Every body an operation documents, over its statuses and media types (none: `undefined`). */
export type ResponseBodies<Op extends OperationId> = [AllContents<Op>] extends [never]
  ? undefined
  : AllContents<Op>;

/** The request a handler receives: path parameters, query (as validated) and body of its operation. */
export type OperationRequest<Op extends OperationId> = Request<
  PathParams<Op>,
  ResponseBodies<Op>,
  RequestBody<Op>,
  QueryParams<Op>
>;

/** The response a handler sends: `res.json` takes one of the operation's documented bodies. */
export type OperationResponse<Op extends OperationId> = Response<ResponseBodies<Op>>;

export type OperationHandler<Op extends OperationId> = (
  req: OperationRequest<Op>,
  res: OperationResponse<Op>,
) => Promise<void> | void;

/** Handlers by operationId; an area gives the ones of its operations. */
export type OperationHandlers = { [Op in OperationId]?: OperationHandler<Op> };

/** What the start check and the dispatcher need of a handler, whatever its operation. */
export type AnyOperationHandler = (req: Request, res: Response) => Promise<void> | void;

/**
 * The handlers of every area as one map, refusing an operationId two areas both serve; then the start check:
 * the server refuses to start when an operation of the spec has no handler or a handler no operation.
 */
export function handlersByOperation(
  operationIds: readonly string[],
  handlerSets: readonly { name: string; handlers: Record<string, unknown> }[],
): Map<string, AnyOperationHandler> {
  const byOperation = new Map<string, AnyOperationHandler>();
  const owner = new Map<string, string>();
  const problems: string[] = [];
  for (const { name, handlers } of handlerSets) {
    for (const [operationId, handler] of Object.entries(handlers)) {
      if (typeof handler !== 'function') continue;
      const first = owner.get(operationId);
      if (first !== undefined) problems.push(`${operationId} has handlers in both ${first} and ${name}`);
      owner.set(operationId, name);
      byOperation.set(operationId, handler as AnyOperationHandler);
    }
  }
  const declared = new Set(operationIds);
  const missing = operationIds.filter((operationId) => !byOperation.has(operationId));
  const extra = [...byOperation.keys()].filter((operationId) => !declared.has(operationId));
  if (missing.length > 0) problems.push(`operations without a handler: ${missing.join(', ')}`);
  if (extra.length > 0)
    problems.push(
      `handlers of no operation of the spec: ${extra.map((id) => `${id} (${owner.get(id)})`).join(', ')}`,
    );
  if (problems.length > 0) throw new Error(`The server cannot start: ${problems.join('; ')}`);
  return byOperation;
}
