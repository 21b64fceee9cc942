// The options every subcommand shares, read one way: the server's URL (`--base-url`, with or without
// `/api/v4`, the form the server prints) and the `--only` language that limits a command to some operations.

import type { OperationEntry } from '../specIndex.js';

/** A mistake in the command line or the config: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** The API's prefix, which a server prints with its URL and the tool adds itself. */
const API_PREFIX = /\/api\/v4$/;

/**
 * The server's origin (and any path it is mounted under) from a URL as a user gives it: `http://host:3000`,
 * `http://host:3000/`, `http://host:3000/api/v4` and `http://host:3000/api/v4/` are one server.
 */
export function baseUrlOption(text: string, name = '--base-url'): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new UsageError(`${name} takes an http(s) URL, not "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${name} takes an http(s) URL, not "${text}"`);
  if (url.search || url.hash) throw new UsageError(`${name} takes a URL without a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(API_PREFIX, '')}`;
}

export const ONLY_HELP = `comma-separated terms, case-insensitive: an operationId or a part of one
                        (badge), a tag (Branches), "METHOD /path" or a part of it (GET /projects/{id}), or
                        a glob with * over any of these (*ProjectBadge*)`;

/** The tag of an operation (its first). */
export function tagOf(entry: OperationEntry): string {
  return String((entry.operation.tags as string[] | undefined)?.[0] ?? '');
}

/** The terms of an --only pattern, lower-case. */
export function onlyTerms(pattern: string): string[] {
  return pattern
    .split(',')
    .map((term) => term.trim().toLowerCase())
    .filter(Boolean);
}

function globOf(term: string): RegExp {
  const parts = term.split('*').map((part) => part.replace(/[.+?^$(){}|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}

/**
 * --only: whether an operation is selected. A term selects an operation when it is a part of its operationId,
 * its tag, or a part of its `METHOD /path`; a term with `*` is a glob that must match one of these whole.
 */
export function onlyMatcher(pattern: string): (entry: OperationEntry) => boolean {
  const tests = onlyTerms(pattern).map((term) => {
    const names = (entry: OperationEntry) => [
      entry.operationId.toLowerCase(),
      tagOf(entry).toLowerCase(),
      `${entry.method} ${entry.template}`.toLowerCase(),
    ];
    if (term.includes('*')) {
      const glob = globOf(term);
      return (entry: OperationEntry) => names(entry).some((name) => glob.test(name));
    }
    return (entry: OperationEntry) => {
      const [id, tag, request] = names(entry);
      return (
        (id as string).includes(term) ||
        tag === term ||
        (term.includes(' ') || term.startsWith('/') ? (request as string).includes(term) : false)
      );
    };
  });
  return (entry) => tests.some((test) => test(entry));
}
