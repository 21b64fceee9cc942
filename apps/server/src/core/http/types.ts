// Request and response types of the API's operations, taken from the generated spec types.
import type { components, operations } from '@collab/spec/schema';

export type Schemas = components['schemas'];
export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON request body of an operation. */
export type RequestBody<Op extends OperationId> = JsonContent<operations[Op]['requestBody']>;

/** The query parameters of an operation. */
export type QueryParams<Op extends OperationId> = operations[Op]['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;

/** The JSON body of one of an operation's responses. */
export type ResponseBody<
  Op extends OperationId,
  Status extends keyof operations[Op]['responses'],
> = JsonContent<operations[Op]['responses'][Status]>;
