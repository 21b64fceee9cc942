// The users area's queries: one page of the user list with its filters and order, one user, and how many
// personal projects users have (whether they may create another).
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import { containsIgnoringCase } from '../../core/store/search.js';
import type { PersonalAccessTokensTable, UsersTable } from '../../core/store/tables.js';

export type UserRow = Selectable<UsersTable>;

/** GitLab's blocked states: blocked users are left out of the list for everybody but administrators. */
export const BLOCKED_STATES = ['blocked', 'ldap_blocked'] as const;

export interface UserFilter {
  /** Exact username, ignoring case. */
  username?: string;
  /** Part of the name or username, or an exact e-mail address (see `searchPrivateEmails`). */
  search?: string;
  /** Whether `search` matches the primary e-mail address too (administrators), not only the public one. */
  searchPrivateEmails: boolean;
  active: boolean;
  blocked: boolean;
  /** Leave blocked users out whatever the other filters say (callers who are no administrators). */
  withoutBlocked: boolean;
  external: boolean;
  excludeExternal: boolean;
  admins: boolean;
  /** ISO timestamps, both ends included. */
  createdAfter?: string;
  createdBefore?: string;
}

export interface UserOrder {
  by: 'id' | 'name' | 'username' | 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
}

function filteredUsers(db: Db, filter: UserFilter) {
  let query = db.selectFrom('users');
  if (filter.username !== undefined)
    query = query.where((eb) => eb(eb.fn('lower', ['username']), '=', filter.username?.toLowerCase() ?? ''));
  const search = filter.search;
  if (search !== undefined) {
    const term = search.toLowerCase();
    query = query.where((eb) =>
      eb.or([
        containsIgnoringCase(eb.ref('name'), search),
        containsIgnoringCase(eb.ref('username'), search),
        eb(eb.fn('lower', ['public_email']), '=', term),
        ...(filter.searchPrivateEmails ? [eb(eb.fn('lower', ['email']), '=', term)] : []),
      ]),
    );
  }
  if (filter.active) query = query.where('state', '=', 'active');
  if (filter.blocked) query = query.where('state', 'in', [...BLOCKED_STATES]);
  if (filter.withoutBlocked) query = query.where('state', 'not in', [...BLOCKED_STATES]);
  if (filter.external) query = query.where('external', '=', 1);
  if (filter.excludeExternal) query = query.where('external', '=', 0);
  if (filter.admins) query = query.where('is_admin', '=', 1);
  if (filter.createdAfter !== undefined) query = query.where('created_at', '>=', filter.createdAfter);
  if (filter.createdBefore !== undefined) query = query.where('created_at', '<=', filter.createdBefore);
  return query;
}

/** One page of the users that pass the filter, in the order asked for, ties broken by ID the same way. */
export function pageOfUsers(
  db: Db,
  filter: UserFilter,
  order: UserOrder,
  window: PageWindow,
): Promise<Page<UserRow>> {
  return readPageOf(
    db,
    filteredUsers(db, filter),
    (query) => {
      const sorted =
        order.by === 'id'
          ? query
          : order.by === 'updated_at'
            ? query.orderBy((eb) => eb.fn.coalesce('updated_at', 'created_at'), order.sort)
            : query.orderBy(order.by, order.sort);
      return sorted.selectAll().orderBy('id', order.sort);
    },
    window,
  );
}

export function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * How many projects each of these users has in their personal namespace (the group of kind `user` whose
 * path is the username): GitLab's `can_create_project` compares it with `projects_limit`.
 */
export async function personalProjectCounts(db: Db, users: readonly UserRow[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (users.length === 0) return counts;
  const rows = await db
    .selectFrom('users as u')
    .innerJoin('groups as g', (join) => join.onRef('g.path', '=', 'u.username').on('g.kind', '=', 'user'))
    .innerJoin('projects as p', 'p.namespace_id', 'g.id')
    .select(['u.id', (eb) => eb.fn.countAll().as('count')])
    .where(
      'u.id',
      'in',
      users.map((user) => user.id),
    )
    .groupBy('u.id')
    .execute();
  for (const row of rows) counts.set(row.id, Number(row.count));
  return counts;
}

/** Adds a user (fixtures); returns its ID. */
export async function insertUser(db: Db, user: Insertable<UsersTable>): Promise<number> {
  const { id } = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Adds a personal access token of a user (fixtures). */
export async function insertPersonalAccessToken(
  db: Db,
  token: Insertable<PersonalAccessTokensTable>,
): Promise<void> {
  await db.insertInto('personal_access_tokens').values(token).execute();
}
