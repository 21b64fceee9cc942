// The users area's queries: one page of the user list with its filters and order, one user, and how many
// personal projects users have (whether they may create another); the writes of POST, PUT and DELETE
// /users (accounts.ts): free usernames and addresses, the personal namespace that follows a username, the
// groups a user owns alone, the ghost user that takes over a deleted user's contributions (which the areas
// owning them hand over: accounts.ts), and the account's own row.
import { type Insertable, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import { unexpiredMembership } from '../../core/access/membership.js';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import { containsIgnoringCase } from '../../core/store/search.js';
import type { Database, PersonalAccessTokensTable, UsersTable } from '../../core/store/tables.js';

type Reader = Db | Transaction<Database>;

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

export function findUser(db: Reader, id: number): Promise<UserRow | undefined> {
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

/** Adds a user (fixtures, POST /users); returns its ID. */
export async function insertUser(db: Reader, user: Insertable<UsersTable>): Promise<number> {
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

/**
 * Whether a username is taken, ignoring case: by another user, or by a top-level namespace other than
 * `exceptUserId`'s own personal one (a group's path, or the namespace a deleted user's projects keep).
 */
export async function usernameTaken(db: Reader, username: string, exceptUserId?: number): Promise<boolean> {
  const lower = username.toLowerCase();
  let users = db.selectFrom('users').select('id').where(sql<string>`lower(username)`, '=', lower);
  if (exceptUserId !== undefined) users = users.where('id', '!=', exceptUserId);
  if (await users.limit(1).executeTakeFirst()) return true;
  let namespaces = db
    .selectFrom('groups')
    .select('id')
    .where('parent_id', 'is', null)
    .where(sql<string>`lower(path)`, '=', lower);
  if (exceptUserId !== undefined) {
    const own = await db
      .selectFrom('users')
      .select('username')
      .where('id', '=', exceptUserId)
      .executeTakeFirst();
    if (own)
      namespaces = namespaces.where((eb) =>
        eb.not(eb.and([eb('kind', '=', 'user'), eb('path', '=', own.username)])),
      );
  }
  return (await namespaces.limit(1).executeTakeFirst()) !== undefined;
}

/** Whether another user has this e-mail address, ignoring case. */
export async function emailTaken(db: Reader, email: string, exceptUserId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where(sql<string>`lower(email)`, '=', email.toLowerCase());
  if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

export async function updateUserRow(
  trx: Transaction<Database>,
  id: number,
  changes: Updateable<UsersTable>,
): Promise<void> {
  await trx.updateTable('users').set(changes).where('id', '=', id).execute();
}

/**
 * The groups (not personal namespaces) that have this user as their only direct owner (GitLab's
 * `solo_owned_groups`), parents before their subgroups.
 */
export async function soleOwnedGroupIds(db: Reader, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('members as m')
    .innerJoin('groups as g', 'g.id', 'm.source_id')
    .select('g.id')
    .where('m.source_type', '=', 'Group')
    .where('m.user_id', '=', userId)
    .where('m.access_level', '>=', OWNER)
    .where(unexpiredMembership('m'))
    .where('g.kind', '=', 'group')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('members as o')
            .select('o.id')
            .where('o.source_type', '=', 'Group')
            .whereRef('o.source_id', '=', 'm.source_id')
            .where('o.access_level', '>=', OWNER)
            .where(unexpiredMembership('o'))
            .where('o.user_id', '!=', userId),
        ),
      ),
    )
    .orderBy('g.full_path')
    .execute();
  return rows.map((row) => row.id);
}

/** The projects of the user's personal namespace. */
export async function personalProjectIds(db: Reader, user: Pick<UserRow, 'username'>): Promise<number[]> {
  const rows = await db
    .selectFrom('projects as p')
    .innerJoin('groups as g', 'g.id', 'p.namespace_id')
    .select('p.id')
    .where('g.kind', '=', 'user')
    .where('g.parent_id', 'is', null)
    .where('g.path', '=', user.username)
    .execute();
  return rows.map((row) => row.id);
}

const OWNER = 50;

/** The ghost user, if it was made already. */
export function findGhostUser(db: Reader): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('user_type', '=', 'ghost').orderBy('id').executeTakeFirst();
}

/**
 * Every column that names a user without the database removing or clearing it with the user: the areas'
 * hand-over functions (accounts.ts `deleteUser`) move each to the ghost user, clear it or delete its rows.
 */
export const KEPT_USER_REFERENCES: readonly (readonly [string, string])[] = [
  ['issues', 'author_id'],
  ['issues', 'closed_by_id'],
  ['merge_requests', 'author_id'],
  ['merge_requests', 'merged_by_id'],
  ['merge_requests', 'closed_by_id'],
  ['epics', 'author_id'],
  ['epics', 'closed_by_id'],
  ['pipelines', 'user_id'],
  ['projects', 'creator_id'],
  ['notes', 'author_id'],
  ['snippets', 'author_id'],
];

/**
 * Deletes the user's row: its tokens, memberships, access requests, stars, to-dos, subscriptions and settings
 * go with it (their foreign keys cascade).
 */
export async function deleteUserRow(trx: Transaction<Database>, userId: number): Promise<void> {
  await trx.deleteFrom('users').where('id', '=', userId).execute();
}
