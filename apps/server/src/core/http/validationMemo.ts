// What the validator made of a request it passed, remembered for the same request. express-openapi-validator
// finds a request's route by compiling route patterns, walks its parameters (parsing the URL again) and runs
// its Ajv validators, through four promise steps: a fifth of a small read's CPU time. Its verdict on a request
// without a body depends only on the request's method, URL, query (as the request readers before it leave
// it) and header parameters, and its one effect on a request it passes that a later step reads is the query
// it leaves: values coerced to their types, defaults added. A request seen before (a client polling a
// pipeline, a page of a list read again) gets that query again without the validator; any other request is
// validated, and remembered when it passes. Only operations without a request body or cookie parameters are
// remembered, and only when responses are not validated (response validation is part of the validator's
// chain).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { setOwnProperty } from './queryParser.js';
import type { OperationOfDocument } from './specDocument.js';

/** The most requests remembered per API; all are forgotten when it is full. */
const MAX_ENTRIES = 2048;
/** Longer keys (long URLs) are validated each time rather than kept. */
const MAX_KEY_LENGTH = 2048;

/** What makes an operation's requests rememberable: the header parameters that are part of the key. */
export interface MemoPlan {
  /** Lower-case names of the operation's header parameters. */
  headers: readonly string[];
}

/** The plan of an operation, or null where its requests are validated every time. */
export function memoPlanOf({ operation, parameters }: OperationOfDocument): MemoPlan | null {
  if (operation.requestBody !== undefined) return null;
  if (parameters.some((parameter) => parameter.in === 'cookie')) return null;
  const headers = parameters
    .filter((parameter) => parameter.in === 'header' && typeof parameter.name === 'string')
    .map((parameter) => String(parameter.name).toLowerCase());
  return { headers };
}

/** A copy of a parsed query (plain objects, arrays and scalars), so that no request shares the remembered one. */
export function copyQuery(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyQuery);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    setOwnProperty(copy, key, copyQuery((value as Record<string, unknown>)[key]));
  return copy;
}

/** The requests of one API that its validator passed, with the query each left. */
export class ValidationMemo {
  private readonly passed = new Map<string, unknown>();

  /** `validate` (a validator chain) for the requests of an operation with `plan`, remembering what it passes. */
  around(validate: RequestHandler, plan: MemoPlan): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const key = keyOf(req, plan);
      if (key.length > MAX_KEY_LENGTH) return validate(req, res, next);
      const query = this.passed.get(key);
      if (query !== undefined) {
        req.query = copyQuery(query) as Request['query'];
        return next();
      }
      return validate(req, res, (error?: unknown) => {
        if (error === undefined || error === null) {
          if (this.passed.size >= MAX_ENTRIES) this.passed.clear();
          this.passed.set(key, copyQuery(req.query));
        }
        next(error);
      });
    };
  }
}

function keyOf(req: Request, plan: MemoPlan): string {
  let key = `${req.method} ${req.originalUrl}\n${JSON.stringify(req.query)}`;
  for (const name of plan.headers) key += `\n${req.headers[name] ?? ''}`;
  return key;
}
