// Request and response types of the API's operations, taken from the generated spec types.
import type { components, operations } from '@collab/spec/schema';

export type Schemas = components['schemas'];
export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/**
 * A request body as routes receive it: a JSON null of an optional property means "not given" and is dropped
 * before validation (core/http/grapeParameters.ts), so no property a route reads is ever null.
 */
export type WithoutNulls<T> = T extends readonly (infer Item)[]
  ? WithoutNulls<Item>[]
  : T extends object
    ? { [Key in keyof T]: WithoutNulls<Exclude<T[Key], null>> }
    : T;

/** The JSON request body of an operation, as routes receive it (see WithoutNulls). */
export type RequestBody<Op extends OperationId> = WithoutNulls<JsonContent<operations[Op]['requestBody']>>;

/** The query parameters of an operation. */
export type QueryParams<Op extends OperationId> = operations[Op]['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;

/** The JSON body of one of an operation's responses. */
export type ResponseBody<
  Op extends OperationId,
  Status extends keyof operations[Op]['responses'],
> = JsonContent<operations[Op]['responses'][Status]>;

/**
 * A request of any operation, for the readers several operations share (pagination, path parameters): each
 * handler's request (core/http/operations.ts) is one. The response body type is `never` so that every
 * operation's request (whose `res` takes only its own bodies) fits.
 */
export type ApiRequest = import('express').Request<
  Record<string, string>,
  never,
  unknown,
  Record<string, unknown>
>;
