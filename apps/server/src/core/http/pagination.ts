// Offset pagination: page/per_page in, the X-* and Link headers out (GitLab's rules).
import type { Response } from 'express';
import type { PageWindow } from '../store/paging.js';
import { originOf, splitUrl } from './request.js';
import type { ApiRequest } from './types.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** The page asked for, and the window of rows it is (`limit` is `perPage`), for the store's page readers. */
export interface PageRequest extends PageWindow {
  page: number;
  perPage: number;
}

/**
 * Reads page and per_page from the (already validated) query; out-of-range values are clamped like GitLab.
 * The page number is kept to a safe integer and so is the offset: a huge page (`page=99999999999999999999`)
 * is a page past the end, an empty list, never an offset the database cannot take.
 */
export function readPage(req: ApiRequest): PageRequest {
  const page = Math.min(Number.MAX_SAFE_INTEGER, Math.max(1, Math.floor(Number(req.query.page ?? 1)) || 1));
  const perPage = Math.min(
    MAX_PER_PAGE,
    Math.max(1, Math.floor(Number(req.query.per_page ?? DEFAULT_PER_PAGE)) || DEFAULT_PER_PAGE),
  );
  const offset = Math.min(Number.MAX_SAFE_INTEGER, (page - 1) * perPage);
  return { page, perPage, offset, limit: perPage };
}

/** Makes the URLs of the other pages of this request: its own URL with page and per_page set. */
function pageUrls(req: ApiRequest, perPage: number): (page: number) => string {
  // Built by concatenation around the one parse of the query: URL objects and their serialisation, four
  // times over, were a tenth of a small list's time.
  const { path, search } = splitUrl(req.originalUrl);
  const rest = search === '' ? '' : otherParameters(search);
  const prefix = `${originOf(req)}${path}?${rest === '' ? '' : `${rest}&`}`;
  return (page) => `${prefix}page=${page}&per_page=${perPage}`;
}

/** A query string without page, per_page and private_token, in a form every reader reads back alike. */
function otherParameters(search: string): string {
  const query = new URLSearchParams(search);
  query.delete('page');
  query.delete('per_page');
  query.delete('private_token');
  // Spaces as %20, not URLSearchParams' `+`: a link must read back as the same query whatever the reader.
  return [...query]
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
}

/** Sets the pagination headers for a list of `total` items of which the current page is sent. */
export function setPaginationHeaders(
  req: ApiRequest,
  res: Response,
  pageRequest: PageRequest,
  total: number,
): void {
  const { page, perPage } = pageRequest;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const next = page < totalPages ? String(page + 1) : '';
  const prev = page > 1 ? String(page - 1) : '';
  res.setHeader('X-Total', String(total));
  res.setHeader('X-Total-Pages', String(totalPages));
  res.setHeader('X-Per-Page', String(perPage));
  res.setHeader('X-Page', String(page));
  res.setHeader('X-Next-Page', next);
  res.setHeader('X-Prev-Page', prev);
  const pageUrl = pageUrls(req, perPage);
  const links: string[] = [];
  if (prev) links.push(`<${pageUrl(page - 1)}>; rel="prev"`);
  if (next) links.push(`<${pageUrl(page + 1)}>; rel="next"`);
  links.push(`<${pageUrl(1)}>; rel="first"`);
  links.push(`<${pageUrl(totalPages)}>; rel="last"`);
  res.setHeader('Link', links.join(', '));
}
