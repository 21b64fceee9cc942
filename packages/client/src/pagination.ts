// Pages of a list, offset and keyset alike: the typed pagination headers, the `Link: rel="next"` to follow
// and, under keyset pagination, the cursor of the next page.
import type { components } from './spec.js';

type Headers_ = components['headers'];

/** The offset pagination headers of a page (absent under keyset pagination, which sends `Link` only). */
export interface PaginationHeaders {
  total: Headers_['XTotal'] | undefined;
  totalPages: Headers_['XTotalPages'] | undefined;
  perPage: Headers_['XPerPage'] | undefined;
  page: Headers_['XPage'] | undefined;
  /** `X-Next-Page` as a number; undefined on the last page. */
  nextPage: Headers_['XPage'] | undefined;
  /** `X-Prev-Page` as a number; undefined on the first page. */
  prevPage: Headers_['XPage'] | undefined;
  link: Headers_['Link'] | undefined;
}

/** The query parameter and value that select the next page under keyset pagination. */
export interface KeysetCursor {
  name: 'cursor' | 'id_after' | 'id_before';
  value: string;
}

export interface Page<T> {
  items: T[];
  response: Response;
  pagination: PaginationHeaders;
  /** The URL of the next page (`Link: rel="next"`), undefined on the last page. */
  next: string | undefined;
  /** Under keyset pagination, the cursor of the next page: pass it as a query parameter to resume later. */
  nextCursor: KeysetCursor | undefined;
}

/** The URL of the `next` link of a Link header, if any. */
export function nextLink(linkHeader: string | null): string | undefined {
  if (!linkHeader) return undefined;
  for (const part of linkHeader.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match?.[1]) return match[1];
  }
  return undefined;
}

export function readPagination(headers: Headers): PaginationHeaders {
  return {
    total: integerHeader(headers, 'X-Total'),
    totalPages: integerHeader(headers, 'X-Total-Pages'),
    perPage: integerHeader(headers, 'X-Per-Page'),
    page: integerHeader(headers, 'X-Page'),
    nextPage: integerHeader(headers, 'X-Next-Page'),
    prevPage: integerHeader(headers, 'X-Prev-Page'),
    link: headers.get('Link') ?? undefined,
  };
}

const CURSOR_PARAMETERS = ['cursor', 'id_after', 'id_before'] as const;

export function keysetCursor(nextUrl: string | undefined): KeysetCursor | undefined {
  if (!nextUrl) return undefined;
  const query = new URL(nextUrl).searchParams;
  for (const name of CURSOR_PARAMETERS) {
    const value = query.get(name);
    if (value) return { name, value };
  }
  return undefined;
}

export function pageOf<T>(items: T[], response: Response): Page<T> {
  const next = nextLink(response.headers.get('Link'));
  return {
    items,
    response,
    pagination: readPagination(response.headers),
    next,
    nextCursor: keysetCursor(next),
  };
}

function integerHeader(headers: Headers, name: string): number | undefined {
  const text = headers.get(name)?.trim();
  if (!text) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
