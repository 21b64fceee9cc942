// Groups (document 2, section 4.1): the group list, the subgroups of a group and a group's details, with
// GitLab's rules (GroupsFinder, lib/api/groups.rb). A caller sees the public groups, the internal ones when
// signed in, and the groups of their memberships with their descendants and ancestors; administrators see
// every group. A group the caller may not see is a 404.
import { randomBytes } from 'node:crypto';
import { AccessLevel, groupAccessLevel } from '../../core/access/access.js';
import { type Caller, requireScope } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { notFound } from '../../core/http/errors.js';
import type { QueryParams } from '../../core/http/types.js';
import { customAttributesOf } from '../../core/store/customAttributes.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { type Group, type GroupDetails, presentGroup } from './present.js';
import { groupStatisticsOf } from './statistics.js';
import {
  ensureRunnersToken,
  findGroupIn,
  fullNamesOf,
  type GroupFilter,
  type GroupOrder,
  type GroupRecord,
  type GroupSelection,
  pageOfGroups,
} from './store.js';

export type ListGroupsQuery = QueryParams<'listGroups'>;

/** Whether the caller is an instance administrator. */
const isAdmin = (caller: Caller): boolean => caller.user?.isAdmin === true;

/**
 * The groups a caller may read at all (those `GET /groups/:id` answers): administrators every group, others
 * the public ones, the internal ones when signed in, and those of their member hierarchy.
 */
function readableSelection(caller: Caller): GroupSelection {
  if (isAdmin(caller)) return { kind: 'all' };
  return { kind: 'visible', userId: caller.user?.id ?? null, includePublic: true };
}

/** The group `idOrPath` if the caller may read it, else 404 (private groups of others included). */
export async function readableGroup(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
): Promise<GroupRecord> {
  requireScope(caller, 'read_api');
  const group = await findGroupIn(context.db, idOrPath, { selection: readableSelection(caller) });
  if (!group) throw notFound('Group');
  return group;
}

/**
 * Where a list starts, in GitLab's precedence: `owned`, then `min_access_level` (both only for a signed-in
 * caller; anonymous `owned` lists nothing, anonymous `min_access_level` is ignored), then all_available,
 * which defaults to true for administrators and false for everyone else (anonymous callers always get the
 * public groups).
 */
function selectionFor(caller: Caller, query: ListGroupsQuery): GroupSelection {
  const user = caller.user;
  if (query.owned) return user ? { kind: 'owned', userId: user.id } : { kind: 'none' };
  if (user && query.min_access_level !== undefined)
    return { kind: 'minAccessLevel', userId: user.id, level: query.min_access_level };
  const allAvailable = query.all_available ?? user?.isAdmin === true;
  if (user?.isAdmin && allAvailable) return { kind: 'all' };
  return { kind: 'visible', userId: user?.id ?? null, includePublic: user === null || allAvailable };
}

/** `custom_attributes[key]=value` pairs: a filter of administrators only (ignored for others, as GitLab). */
function customAttributePairs(caller: Caller, value: unknown): [string, string][] {
  if (!isAdmin(caller) || typeof value !== 'object' || value === null) return [];
  return Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === 'string');
}

/** `skip_groups` as the validator leaves it: an array of integers, or one integer. */
function skipIds(value: unknown): number[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.map(Number).filter((id) => Number.isSafeInteger(id));
}

/** Presents a page of groups: names, and for administrators who asked, attributes and statistics. */
async function presentGroups(
  context: ServerContext,
  caller: Caller,
  rows: GroupRecord[],
  options: { statistics?: boolean; with_custom_attributes?: boolean },
  origin: string,
): Promise<Group[]> {
  const ids = rows.map((row) => row.id);
  const admin = isAdmin(caller);
  const [names, attributes, statistics] = await Promise.all([
    fullNamesOf(context.db, ids),
    admin && options.with_custom_attributes ? customAttributesOf(context.db, 'Group', ids) : undefined,
    admin && options.statistics ? groupStatisticsOf(context, ids) : undefined,
  ]);
  return rows.map((row) =>
    presentGroup(
      row,
      {
        fullName: names.get(row.id) ?? row.name,
        customAttributes: attributes ? (attributes.get(row.id) ?? []) : undefined,
        statistics: statistics?.get(row.id),
      },
      origin,
    ),
  );
}

async function listGroupsWhere(
  context: ServerContext,
  caller: Caller,
  query: ListGroupsQuery,
  parentId: number | undefined,
  window: PageWindow,
  origin: string,
): Promise<Page<Group>> {
  const filter: GroupFilter = {
    selection: selectionFor(caller, query),
    parentId,
    skipIds: skipIds(query.skip_groups),
    search: query.search || undefined,
    customAttributes: customAttributePairs(caller, query.custom_attributes),
  };
  const order: GroupOrder = { by: query.order_by ?? 'name', sort: query.sort ?? 'asc' };
  const page = await pageOfGroups(context.db, filter, order, window);
  return { items: await presentGroups(context, caller, page.items, query, origin), total: page.total };
}

export function listGroups(
  context: ServerContext,
  caller: Caller,
  query: ListGroupsQuery,
  window: PageWindow,
  origin: string,
): Promise<Page<Group>> {
  requireScope(caller, 'read_api');
  return listGroupsWhere(context, caller, query, undefined, window, origin);
}

/** The direct subgroups of a group the caller may read, with the filters of the group list. */
export async function listSubgroups(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  query: ListGroupsQuery,
  window: PageWindow,
  origin: string,
): Promise<Page<Group>> {
  const parent = await readableGroup(context, caller, idOrPath);
  return listGroupsWhere(context, caller, query, parent.id, window, origin);
}

/** A new runners registration token: GitLab's group token prefix and 20 random characters. */
function newRunnersToken(): string {
  return `GR1348941${randomBytes(15).toString('base64url').slice(0, 20)}`;
}

export interface GroupDetailsOptions {
  with_custom_attributes?: boolean;
  with_projects?: boolean;
}

/**
 * A group's details. The runners token is shown to those who administer the group (its owners, through
 * the group or an ancestor, and administrators: GitLab's `admin_group`); `projects` and `shared_projects`
 * (deprecated) are read by `projectsOfGroup` when `with_projects` is not false.
 */
export async function getGroup(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  options: GroupDetailsOptions,
  origin: string,
  projectsOfGroup: (group: GroupRecord) => Promise<Pick<GroupDetails, 'projects' | 'shared_projects'>>,
): Promise<GroupDetails> {
  const group = await readableGroup(context, caller, idOrPath);
  const [presented] = await presentGroups(
    context,
    caller,
    [group],
    { with_custom_attributes: options.with_custom_attributes },
    origin,
  );
  if (!presented) throw notFound('Group');
  const details: GroupDetails = { ...presented, shared_with_groups: [] };
  const level = caller.user ? await groupAccessLevel(context.db, caller, { ...group, kind: 'group' }) : 0;
  if (level >= AccessLevel.OWNER) {
    details.runners_token =
      group.runners_token ?? (await ensureRunnersToken(context.db, group.id, newRunnersToken()));
  }
  if (options.with_projects !== false) Object.assign(details, await projectsOfGroup(group));
  return details;
}
