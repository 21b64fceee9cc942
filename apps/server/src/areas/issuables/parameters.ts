// The list parameters issues, merge requests and epics read alike: label names and the labels filter,
// integers, `iids` and the order.

import type { Request } from 'express';
import { invalidParameter } from '../../core/http/errors.js';
import { optionalQueryString } from '../../core/http/request.js';

/**
 * Label names from a comma-separated string or an array (GitLab's label parameters): trimmed, empty ones
 * dropped, duplicates removed (first spelling kept). `name` is the parameter, for the error message.
 */
export function labelNames(name: string, value: string | readonly string[]): string[] {
  const parts = typeof value === 'string' ? value.split(',') : value.flatMap((item) => item.split(','));
  const names: string[] = [];
  for (const part of parts) {
    const label = part.trim();
    if (label === '') continue;
    if (label.length > 255) throw invalidParameter(name, 'a label name is longer than 255 characters');
    if (!names.includes(label)) names.push(label);
  }
  return names;
}

/** The `labels` filter: issuables with none, with any, or with all of the named labels. */
export type LabelFilter = { kind: 'none' } | { kind: 'any' } | { kind: 'all'; names: string[] };

/** `None` and `Any` (any case, as GitLab's FILTER_NONE / FILTER_ANY) or label names. */
export function labelFilter(value: string | undefined): LabelFilter | undefined {
  if (value === undefined) return undefined;
  const lower = value.trim().toLowerCase();
  if (lower === 'none') return { kind: 'none' };
  if (lower === 'any') return { kind: 'any' };
  const names = labelNames('labels', value);
  return names.length === 0 ? undefined : { kind: 'all', names };
}

/** An integer query parameter (the validator has checked it; a number or its digits). */
export function integerQuery(req: Request, name: string): number | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  const number = Number(value);
  if (typeof value === 'object' || !Number.isSafeInteger(number)) throw invalidParameter(name);
  return number;
}

/** `iids[]=1&iids[]=2` or `iids=1&iids=2` (the query parser makes both `iids`); undefined if absent. */
export function iidsQuery(req: Request): number[] | undefined {
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
  req: Request,
  allowed: readonly OrderBy[],
): { orderBy: OrderBy; sort: 'asc' | 'desc' } {
  const orderBy = optionalQueryString(req, 'order_by') ?? 'created_at';
  if (!(allowed as readonly string[]).includes(orderBy)) throw invalidParameter('order_by');
  const sort = optionalQueryString(req, 'sort') ?? 'desc';
  if (sort !== 'asc' && sort !== 'desc') throw invalidParameter('sort');
  return { orderBy: orderBy as OrderBy, sort };
}
