// The list parameters issues, merge requests and epics read alike: label names and the labels filter,
// integers, `iids` and the order.

import { invalidParameter } from '../../core/http/errors.js';
import { optionalQueryString } from '../../core/http/request.js';
import type { ApiRequest } from '../../core/http/types.js';

/**
 * Label names from a comma-separated string or an array (GitLab's label parameters, read by its
 * `LabelsList` coercion, on issues, merge requests, epics and their list filters): trimmed, empty ones
 * dropped, duplicates removed (first spelling kept). `name` is the parameter, for the error message.
 */
export function labelNames(name: string, value: string | readonly string[]): string[] {
  const parts = typeof value === 'string' ? value.split(',') : value.flatMap((item) => item.split(','));
  const names: string[] = [];
  for (const part of parts) {
    const label = part.trim();
    if (label === '') continue;
    // Characters as a label's title counts them (code points, not UTF-16 units).
    if ([...label].length > 255) throw invalidParameter(name, 'a label name is longer than 255 characters');
    if (!names.includes(label)) names.push(label);
  }
  return names;
}

/** The `labels` filter: issuables with none, with any, or with all of the named labels. */
export type LabelFilter = { kind: 'none' } | { kind: 'any' } | { kind: 'all'; names: string[] };

/**
 * `None` and `Any` (any case, as GitLab's FILTER_NONE / FILTER_ANY: one of the names is enough, as in its
 * IssuableFinder) or label names, from a comma-separated string or an array.
 */
export function labelFilter(value: string | readonly string[] | undefined): LabelFilter | undefined {
  if (value === undefined) return undefined;
  const names = labelNames('labels', value);
  const lower = names.map((label) => label.toLowerCase());
  if (lower.includes('none')) return { kind: 'none' };
  if (lower.includes('any')) return { kind: 'any' };
  return names.length === 0 ? undefined : { kind: 'all', names };
}

/** The `labels` query filter, given as `labels=a,b`, `labels[]=a&labels[]=b` or `labels=a&labels=b`. */
export function labelsQuery(req: ApiRequest): LabelFilter | undefined {
  const value = req.query.labels;
  if (typeof value === 'string') return labelFilter(value);
  if (Array.isArray(value))
    return labelFilter(value.filter((item): item is string => typeof item === 'string'));
  return undefined;
}

/** An integer query parameter (the validator has checked it; a number or its digits). */
export function integerQuery(req: ApiRequest, name: string): number | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  const number = Number(value);
  if (typeof value === 'object' || !Number.isSafeInteger(number)) throw invalidParameter(name);
  return number;
}

/** `iids[]=1&iids[]=2` or `iids=1&iids=2` (the query parser makes both `iids`); undefined if absent. */
export function iidsQuery(req: ApiRequest): number[] | undefined {
  const value = req.query.iids;
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  return values.map((item) => {
    const number = Number(item);
    if (typeof item === 'object' || !Number.isSafeInteger(number)) throw invalidParameter('iids');
    return number;
  });
}

/** `order_by` and `sort`, whose values the validator has checked. */
export function orderQuery<OrderBy extends string>(
  req: ApiRequest,
  allowed: readonly OrderBy[],
): { orderBy: OrderBy; sort: 'asc' | 'desc' } {
  const orderBy = optionalQueryString(req, 'order_by') ?? 'created_at';
  if (!(allowed as readonly string[]).includes(orderBy)) throw invalidParameter('order_by');
  const sort = optionalQueryString(req, 'sort') ?? 'desc';
  if (sort !== 'asc' && sort !== 'desc') throw invalidParameter('sort');
  return { orderBy: orderBy as OrderBy, sort };
}
