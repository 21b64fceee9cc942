// The users API (GitLab v4's lib/api/users.rb; the seeds do not show it): the current user, the user list
// and single users. Who sees what, as GitLab:
// - GET /user needs a valid token; administrators get `is_admin` too.
// - GET /users: anonymous callers must name a `username` (403 otherwise), so that the instance's users
//   cannot be listed without a token. Blocked users are only listed to administrators, and only
//   administrators order the list or filter it by creation time or by administrator flag.
// - GET /users/:id needs a signed-in caller (403 anonymous, GitLab's `forbidden!` there); 404 for an unknown
//   ID. A private profile hides its dates and follow counts from everybody but its user and administrators.
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { forbidden, notFound } from '../../core/http/errors.js';
import type { QueryParams, ResponseBody } from '../../core/http/types.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { presentUserBasic, presentUserProfile, presentUserPublic, presentUserWithAdmin } from './present.js';
import { findUser, pageOfUsers, personalProjectCounts, type UserFilter, type UserOrder } from './store.js';

export type ListUsersQuery = QueryParams<'listUsers'>;
type ListedUser = ResponseBody<'listUsers', 200>[number];
type CurrentUser = ResponseBody<'getCurrentUser', 200>;
type SingleUser = ResponseBody<'getUser', 200>;

/** A query value GitLab counts as given: Grape's `present?` (an empty string is not). */
function given(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** A date-time parameter as the stored form (ISO in UTC), so that the comparison is of one format. */
function isoTime(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

export async function getCurrentUser(
  context: ServerContext,
  caller: Caller,
  origin: string,
): Promise<CurrentUser> {
  const user = requireUser(caller);
  requireScope(caller, 'read_api');
  const row = await findUser(context.db, user.id);
  // The token's user was just read with the token: only a deletion in between leaves no row.
  if (!row) throw notFound('User');
  const personalProjects = (await personalProjectCounts(context.db, [row])).get(row.id) ?? 0;
  return user.isAdmin
    ? presentUserWithAdmin(row, origin, personalProjects)
    : presentUserPublic(row, origin, personalProjects);
}

export async function listUsers(
  context: ServerContext,
  caller: Caller,
  query: ListUsersQuery,
  window: PageWindow,
  origin: string,
): Promise<Page<ListedUser>> {
  requireScope(caller, 'read_api');
  const username = given(query.username);
  if (!caller.user && username === undefined)
    throw forbidden('403 Forbidden - Not authorized to access /api/v4/users');
  const admin = caller.user?.isAdmin === true;
  const filter: UserFilter = {
    username,
    search: given(query.search),
    searchPrivateEmails: admin,
    active: query.active === true,
    blocked: query.blocked === true,
    withoutBlocked: !admin,
    external: query.external === true,
    excludeExternal: query.exclude_external === true,
    admins: admin && query.admins === true,
    createdAfter: admin ? isoTime(query.created_after) : undefined,
    createdBefore: admin ? isoTime(query.created_before) : undefined,
  };
  const order: UserOrder = admin
    ? { by: query.order_by ?? 'id', sort: query.sort ?? 'desc' }
    : { by: 'id', sort: 'desc' };
  const page = await pageOfUsers(context.db, filter, order, window);
  if (!admin) return { items: page.items.map((row) => presentUserBasic(row, origin)), total: page.total };
  const counts = await personalProjectCounts(context.db, page.items);
  return {
    items: page.items.map((row) => presentUserWithAdmin(row, origin, counts.get(row.id) ?? 0)),
    total: page.total,
  };
}

export async function getUser(
  context: ServerContext,
  caller: Caller,
  id: number,
  origin: string,
): Promise<SingleUser> {
  if (!caller.user) throw forbidden('403 Forbidden - Not authorized!');
  requireScope(caller, 'read_api');
  const row = await findUser(context.db, id);
  if (!row) throw notFound('User');
  if (caller.user.isAdmin) {
    const counts = await personalProjectCounts(context.db, [row]);
    return presentUserWithAdmin(row, origin, counts.get(row.id) ?? 0);
  }
  const readsProfile = row.private_profile !== 1 || row.id === caller.user.id;
  return presentUserProfile(row, origin, readsProfile);
}
