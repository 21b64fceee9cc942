// The error a client call throws when the API answers with an error status.
import type { components } from '@collab/spec/schema';

export type ApiErrorBody = components['schemas']['Error'];

export class CollabApiError extends Error {
  constructor(
    /** The HTTP status of the answer. */
    readonly status: number,
    /** The `Error` body of the answer, when it had one. */
    readonly body: ApiErrorBody | undefined,
    readonly method: string,
    readonly url: string,
  ) {
    super(`${method} ${url} answered ${status}: ${CollabApiError.describe(body)}`);
    this.name = 'CollabApiError';
  }

  private static describe(body: ApiErrorBody | undefined): string {
    if (!body) return 'no body';
    if (typeof body.message === 'string') return body.message;
    if (body.message) return JSON.stringify(body.message);
    return [body.error, body.error_description].filter(Boolean).join(': ');
  }
}
