// The groups area's queries: which groups a caller may see (GitLab's GroupsFinder, in SQL), one page of them,
// and what presenting a page needs (the names of their ancestors, custom attributes, statistics), each one
// query for the whole page.
import { type Insertable, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { GroupRow } from '../../core/access/access.js';
import { inMemberHierarchy } from '../../core/access/groupHierarchy.js';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import { containsIgnoringCase } from '../../core/store/search.js';
import type { Database } from '../../core/store/tables.js';

const OWNER = 50;

/** Who is asking, as far as group visibility goes. */
export interface Viewer {
  userId: number | null;
  isAdmin: boolean;
}

/**
 * Which groups a list starts from, before its filters (GitLab's GroupsFinder#all_groups, in its order of
 * precedence): `owned` the groups the user owns directly; `minAccessLevel` the groups the user is a direct
 * member of at that level or above and their descendants; `all` every group (administrators with
 * all_available); `visible` the groups the user is a member of with their descendants, the ancestors of
 * those and of the user's projects' groups, plus, with `includePublic`, the public groups (and internal ones
 * for a signed-in user).
 */
export type GroupSelection =
  | { kind: 'owned'; userId: number }
  | { kind: 'minAccessLevel'; userId: number; level: number }
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'visible'; userId: number | null; includePublic: boolean };

export interface GroupFilter {
  selection: GroupSelection;
  /** Only the direct subgroups of this group. */
  parentId?: number;
  skipIds?: readonly number[];
  /** Part of the name or path, case-insensitive. */
  search?: string;
  /** Every pair must match (key and value). */
  customAttributes?: readonly (readonly [string, string])[];
}

export type GroupOrder = { by: 'name' | 'path' | 'id'; sort: 'asc' | 'desc' };

/** A group's row as the lists read it (RECORD_COLUMNS): every column but `kind`, which is always `group` here. */
export type GroupRecord = Omit<GroupRow, 'kind'>;

/** The group is one the user is a direct member of at `level` or above, or a descendant of one. */
function inMinAccessLevel(userId: number, level: number): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from group_ancestors as up
    where up.group_id = groups.id
      and exists (
        select 1 from members
        where members.source_type = 'Group' and members.source_id = up.ancestor_id
          and members.user_id = ${userId} and members.access_level >= ${level}))`;
}

function selectionCondition(selection: GroupSelection): RawBuilder<boolean> {
  switch (selection.kind) {
    case 'all':
      return sql<boolean>`1 = 1`;
    case 'none':
      return sql<boolean>`1 = 0`;
    case 'owned':
      return sql<boolean>`groups.id in (
        select source_id from members
        where user_id = ${selection.userId} and source_type = 'Group' and access_level = ${OWNER})`;
    case 'minAccessLevel':
      return inMinAccessLevel(selection.userId, selection.level);
    case 'visible': {
      const { userId, includePublic } = selection;
      const publicLevels = userId === null ? ['public'] : ['public', 'internal'];
      const members = userId === null ? sql<boolean>`1 = 0` : inMemberHierarchy(userId);
      if (!includePublic) return members;
      return sql<boolean>`(groups.visibility in (${sql.join(publicLevels)}) or ${members})`;
    }
  }
}

type GroupsQuery = SelectQueryBuilder<Database, 'groups', object>;

/** The groups of `filter`, selecting nothing yet (for readPageOf and for single lookups). */
function filteredGroups(db: Db, filter: GroupFilter): GroupsQuery {
  let query: GroupsQuery = db
    .selectFrom('groups')
    .where('groups.kind', '=', 'group')
    .where(selectionCondition(filter.selection));
  if (filter.parentId !== undefined) query = query.where('groups.parent_id', '=', filter.parentId);
  if (filter.skipIds && filter.skipIds.length > 0) query = query.where('groups.id', 'not in', filter.skipIds);
  const search = filter.search;
  if (search) {
    query = query.where((eb) =>
      eb.or([
        containsIgnoringCase(eb.ref('groups.name'), search),
        containsIgnoringCase(eb.ref('groups.path'), search),
      ]),
    );
  }
  for (const [key, value] of filter.customAttributes ?? []) {
    query = query.where(sql<boolean>`exists (
      select 1 from custom_attributes ca
      where ca.subject_type = 'Group' and ca.subject_id = groups.id and ca.key = ${key} and ca.value = ${value})`);
  }
  return query;
}

const RECORD_COLUMNS = [
  'groups.id',
  'groups.name',
  'groups.path',
  'groups.full_path',
  'groups.parent_id',
  'groups.visibility',
  'groups.description',
  'groups.created_at',
  'groups.runners_token',
] as const;

/** One page of the groups of `filter` in `order` (the ID breaks ties, ascending, as GitLab's list does). */
export function pageOfGroups(
  db: Db,
  filter: GroupFilter,
  order: GroupOrder,
  window: PageWindow,
): Promise<Page<GroupRecord>> {
  return readPageOf(
    db,
    filteredGroups(db, filter),
    (query) => {
      const selected = query.select(RECORD_COLUMNS).orderBy(`groups.${order.by}`, order.sort);
      return order.by === 'id' ? selected : selected.orderBy('groups.id', 'asc');
    },
    window,
  );
}

/** A group (no personal namespace) by numeric ID or full path, if `filter` lets it through. */
export function findGroupIn(db: Db, idOrPath: string, filter: GroupFilter): Promise<GroupRecord | undefined> {
  const query = filteredGroups(db, filter).select(RECORD_COLUMNS);
  return /^\d+$/.test(idOrPath)
    ? query.where('groups.id', '=', Number(idOrPath)).executeTakeFirst()
    : query.where('groups.full_path', '=', idOrPath).executeTakeFirst();
}

/** The display names of groups: their own and their ancestors' names, top first, joined by ` / `. */
export async function fullNamesOf(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  if (ids.length === 0) return names;
  // From the closure table (migration 016), farthest ancestor first.
  const rows = await db
    .selectFrom('group_ancestors as a')
    .innerJoin('groups as g', 'g.id', 'a.ancestor_id')
    .select(['a.group_id', 'g.name'])
    .where('a.group_id', 'in', ids)
    .orderBy('a.group_id')
    .orderBy('a.depth', 'desc')
    .execute();
  for (const row of rows) {
    const before = names.get(row.group_id);
    names.set(row.group_id, before === undefined ? row.name : `${before} / ${row.name}`);
  }
  return names;
}

/**
 * Gives the group a runners token unless it has one (a concurrent reader may have made it first: the token
 * that was stored wins), and returns the stored token.
 */
export async function ensureRunnersToken(db: Db, groupId: number, token: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('groups')
      .set({ runners_token: token })
      .where('id', '=', groupId)
      .where('runners_token', 'is', null)
      .execute();
    const row = await trx
      .selectFrom('groups')
      .select('runners_token')
      .where('id', '=', groupId)
      .executeTakeFirstOrThrow();
    return row.runners_token ?? token;
  });
}

/** The projects directly in these groups, with where their repositories are (for statistics). */
export function projectsInGroups(db: Db, groupIds: readonly number[]) {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('projects')
    .select(['id', 'namespace_id', 'repository_storage', 'repository_generation'])
    .where('namespace_id', 'in', groupIds)
    .execute();
}

/** Adds a group (fixtures; its ancestors' rows are the database's triggers' work); returns its ID. */
export async function insertGroup(db: Db, group: Insertable<Database['groups']>): Promise<number> {
  const { id } = await db.insertInto('groups').values(group).returning('id').executeTakeFirstOrThrow();
  return id;
}
