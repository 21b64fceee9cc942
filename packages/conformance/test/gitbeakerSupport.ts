// What the gitbeaker test files share: gitbeaker (@gitbeaker/rest) as each role of the config, the status of a
// refused call, and the global fetch (which gitbeaker calls) routed through the suite's validating fetch.
import { GitbeakerRequestError, Gitlab } from '@gitbeaker/rest';
import { expect } from 'vitest';
import { type Role, type Target, validatingFetch } from '../src/index.js';

export type Api = Gitlab<false>;

/**
 * gitbeaker as one of the config's roles of the target `current()` gives (opened in beforeAll): one client per
 * role, as an application would hold it.
 */
export function gitbeakerClients(current: () => Target): (role: Role) => Api {
  const apis = new Map<Role, Api>();
  return (role) => {
    let api = apis.get(role);
    if (!api) {
      const { config } = current();
      api = new Gitlab({ host: config.baseUrl, token: config.tokens[role] });
      apis.set(role, api);
    }
    return api;
  };
}

/** The HTTP status of a refused gitbeaker call (it throws a GitbeakerRequestError carrying the response). */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(GitbeakerRequestError);
    const cause = (error as GitbeakerRequestError).cause;
    return { status: cause?.response.status ?? 0, message: cause?.description ?? '' };
  }
  throw new Error('the call succeeded; a refusal was expected');
}

export interface GlobalFetchOptions {
  /** Changes a request's URL before it is sent (a test correcting a client's misspelt path). */
  rewrite?: (url: string) => string;
  /** Whether a request to the API (its URL after `rewrite`) goes around the validation. */
  unvalidated?: (url: string) => boolean;
}

/**
 * gitbeaker calls the global fetch: every request to the target's API goes through the validating fetch
 * (the spec's contract), others as before. Returns the function that puts the original fetch back.
 */
export function validateGlobalFetch(target: Target, options: GlobalFetchOptions = {}): () => void {
  const originalFetch = globalThis.fetch;
  const validating = validatingFetch(originalFetch);
  const api = `${target.config.baseUrl}/api/v4/`;
  globalThis.fetch = (input, init) => {
    const given = input instanceof Request ? input.url : String(input);
    const url = options.rewrite?.(given) ?? given;
    if (url !== given) input = input instanceof Request ? new Request(url, input) : url;
    const validated = url.startsWith(api) && !options.unvalidated?.(url);
    return validated ? validating(input, init) : originalFetch(input, init);
  };
  return () => {
    globalThis.fetch = originalFetch;
  };
}
