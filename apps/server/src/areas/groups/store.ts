// The groups area's queries: which groups a caller may see (GitLab's GroupsFinder, in SQL), one page of them,
// and what presenting a page needs (the names of their ancestors, custom attributes, statistics), each one
// query for the whole page.
import {
  type Insertable,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { GroupRow } from '../../core/access/access.js';
import { inMemberHierarchy } from '../../core/access/groupHierarchy.js';
import { unexpiredMembership } from '../../core/access/membership.js';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import { containsIgnoringCase } from '../../core/store/search.js';
import type { Database } from '../../core/store/tables.js';
import { deleteWhatHangsOn } from '../issuables/index.js';

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
          and members.user_id = ${userId} and members.access_level >= ${level}
          and ${unexpiredMembership('members')}))`;
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
        where user_id = ${selection.userId} and source_type = 'Group' and access_level = ${OWNER}
          and ${unexpiredMembership('members')})`;
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
  'groups.share_with_group_lock',
  'groups.require_two_factor_authentication',
  'groups.two_factor_grace_period',
  'groups.project_creation_level',
  'groups.auto_devops_enabled',
  'groups.subgroup_creation_level',
  'groups.emails_disabled',
  'groups.mentions_disabled',
  'groups.lfs_enabled',
  'groups.request_access_enabled',
  'groups.default_branch_protection',
  'groups.avatar',
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

// Making, changing and removing groups (issue 27).

export type GroupChanges = Updateable<Database['groups']>;

/** Whether the user may create top-level groups (GitLab's `can_create_group`; administrators always may). */
export async function userMayCreateGroups(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('can_create_group')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.can_create_group === 1;
}

/**
 * Whether `path` is taken (ignoring case) where a group would take it: under `parentId` by another group or
 * a project, at the top by another group or a user (whose personal namespace has their username).
 * `exceptGroupId` is the group itself when it changes its path.
 */
export async function pathTaken(
  db: Db,
  parentId: number | null,
  path: string,
  exceptGroupId?: number,
): Promise<boolean> {
  const lower = path.toLowerCase();
  let groups = db
    .selectFrom('groups')
    .select('id')
    .where(sql<boolean>`lower(path) = ${lower}`)
    .where('parent_id', parentId === null ? 'is' : '=', parentId);
  if (exceptGroupId !== undefined) groups = groups.where('id', '!=', exceptGroupId);
  if (await groups.executeTakeFirst()) return true;
  if (parentId === null) {
    // Every user has a personal namespace at the top named after them, made or not.
    const user = await db
      .selectFrom('users')
      .select('id')
      .where(sql<boolean>`lower(username) = ${lower}`)
      .executeTakeFirst();
    return user !== undefined;
  }
  const project = await db
    .selectFrom('projects')
    .select('id')
    .where('namespace_id', '=', parentId)
    .where(sql<boolean>`lower(path) = ${lower}`)
    .executeTakeFirst();
  return project !== undefined;
}

/** A group's visibility, if it exists. */
export function visibilityOfGroup(db: Db, groupId: number): Promise<{ visibility: string } | undefined> {
  return db.selectFrom('groups').select('visibility').where('id', '=', groupId).executeTakeFirst();
}

/** The visibilities of the group's descendants (subgroups at any depth) and of its own projects. */
export async function visibilitiesBelow(
  db: Db,
  groupId: number,
): Promise<{ subgroups: string[]; projects: string[] }> {
  const [subgroups, projects] = await Promise.all([
    db
      .selectFrom('group_ancestors as a')
      .innerJoin('groups as g', 'g.id', 'a.group_id')
      .select('g.visibility')
      .distinct()
      .where('a.ancestor_id', '=', groupId)
      .where('a.depth', '>', 0)
      .execute(),
    db.selectFrom('projects').select('visibility').distinct().where('namespace_id', '=', groupId).execute(),
  ]);
  return {
    subgroups: subgroups.map((row) => row.visibility),
    projects: projects.map((row) => row.visibility),
  };
}

/** Makes the group and its creator's owner membership, in one transaction; returns its ID. */
export async function insertGroupWithOwner(
  db: Db,
  group: Insertable<Database['groups']>,
  ownerId: number,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx.insertInto('groups').values(group).returning('id').executeTakeFirstOrThrow();
    await trx
      .insertInto('members')
      .values({
        source_type: 'Group',
        source_id: id,
        user_id: ownerId,
        access_level: 50,
        created_at: group.created_at,
        created_by_id: ownerId,
      })
      .execute();
    return id;
  });
}

/**
 * Changes the group's columns; a new full path moves the full paths of its descendants with it (their
 * part below the group kept), in the same transaction.
 */
export async function updateGroupRow(
  db: Db,
  groupId: number,
  changes: GroupChanges,
  fullPaths?: { from: string; to: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (Object.keys(changes).length > 0)
      await trx.updateTable('groups').set(changes).where('id', '=', groupId).execute();
    if (!fullPaths || fullPaths.from === fullPaths.to) return;
    await trx
      .updateTable('groups')
      .set({ full_path: sql<string>`${fullPaths.to} || substr(full_path, ${fullPaths.from.length + 1})` })
      .where('id', 'in', (eb) =>
        eb.selectFrom('group_ancestors').select('group_id').where('ancestor_id', '=', groupId),
      )
      .execute();
  });
}

/** The group and its descendants, deepest first (children before their parents). */
export async function subtreeOf(db: Db, groupId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('group_ancestors')
    .select('group_id')
    .where('ancestor_id', '=', groupId)
    .orderBy('depth', 'desc')
    .orderBy('group_id', 'desc')
    .execute();
  return rows.map((row) => row.group_id);
}

/** The projects in these groups. */
export async function projectIdsIn(db: Db, groupIds: readonly number[]): Promise<number[]> {
  if (groupIds.length === 0) return [];
  const rows = await db.selectFrom('projects').select('id').where('namespace_id', 'in', groupIds).execute();
  return rows.map((row) => row.id);
}

/**
 * The tables holding rows of groups, read from the schema (so tables later migrations add go too): a
 * `group_id` or `ancestor_id` column, an `epic_id` or `label_id` column (rows of a group's epics and
 * labels), or a polymorphic pair naming a `Group` (members, access requests, notification settings, custom
 * attributes).
 */
async function tablesReferringToGroups(db: Db) {
  const byColumn: [string, 'group_id' | 'ancestor_id' | 'epic_id' | 'label_id'][] = [];
  const polymorphic: [string, string, string][] = [];
  for (const table of await db.introspection.getTables()) {
    const columns = new Set(table.columns.map((column) => column.name));
    for (const column of ['epic_id', 'label_id', 'group_id', 'ancestor_id'] as const) {
      if (columns.has(column) && table.name !== 'groups') byColumn.push([table.name, column]);
    }
    for (const [type, id] of [
      ['source_type', 'source_id'],
      ['subject_type', 'subject_id'],
    ] as const) {
      if (columns.has(type) && columns.has(id)) polymorphic.push([table.name, type, id]);
    }
  }
  return { byColumn, polymorphic };
}

/**
 * Removes the rows of these groups (deepest first, as subtreeOf gives them) and of everything that hangs on
 * them, in one transaction. Their projects are removed before (by the projects area).
 */
export async function deleteGroupRows(db: Db, groupIds: readonly number[]): Promise<void> {
  if (groupIds.length === 0) return;
  const tables = await tablesReferringToGroups(db);
  await db.transaction().execute((trx) => deleteGroupRowsWith(trx, tables, groupIds));
}

/** deleteGroupRows in the caller's transaction. */
async function deleteGroupRowsIn(trx: Transaction<Database>, groupIds: readonly number[]): Promise<void> {
  if (groupIds.length === 0) return;
  await deleteGroupRowsWith(trx, await tablesReferringToGroups(trx), groupIds);
}

async function deleteGroupRowsWith(
  trx: Transaction<Database>,
  tables: Awaited<ReturnType<typeof tablesReferringToGroups>>,
  groupIds: readonly number[],
): Promise<void> {
  const ids = [...groupIds];
  const epics = (await trx.selectFrom('epics').select('id').where('group_id', 'in', ids).execute()).map(
    (row) => row.id,
  );
  const labels = (await trx.selectFrom('labels').select('id').where('group_id', 'in', ids).execute()).map(
    (row) => row.id,
  );
  const of: Record<string, number[]> = {
    epic_id: epics,
    label_id: labels,
    group_id: ids,
    ancestor_id: ids,
  };
  // What hangs on an epic by type and ID (reactions, labels, assignees, to-dos, notes), then the rows naming
  // an epic, a label or a group by column: table and column names from the schema, never from the request.
  if (epics.length > 0) {
    await deleteWhatHangsOn(trx, 'Epic', epics);
    await trx.updateTable('epics').set({ parent_id: null }).where('parent_id', 'in', epics).execute();
  }
  for (const column of ['epic_id', 'label_id', 'group_id', 'ancestor_id'] as const) {
    const values = of[column] ?? [];
    if (values.length === 0) continue;
    for (const [table, name] of tables.byColumn) {
      if (name !== column) continue;
      await sql`delete from ${sql.table(table)} where ${sql.ref(name)} in (${sql.join(values)})`.execute(trx);
    }
  }
  for (const [table, typeColumn, idColumn] of tables.polymorphic) {
    await sql`delete from ${sql.table(table)}
        where ${sql.ref(typeColumn)} = 'Group' and ${sql.ref(idColumn)} in (${sql.join(ids)})`.execute(trx);
  }
  for (const id of ids) await trx.deleteFrom('groups').where('id', '=', id).execute();
}

/* A user's personal namespace (the group of kind `user` whose path is the username) ------------------ */

/**
 * The personal namespace follows its user's username and name (GitLab renames it with the user; in the
 * caller's transaction); the repositories are stored by project ID, so nothing else moves.
 */
export async function renamePersonalNamespace(
  trx: Transaction<Database>,
  oldUsername: string,
  username: string,
  name: string,
): Promise<void> {
  await trx
    .updateTable('groups')
    .set({ path: username, full_path: username, name })
    .where('kind', '=', 'user')
    .where('parent_id', 'is', null)
    .where('path', '=', oldUsername)
    .execute();
}

/**
 * Deletes a deleted user's personal namespace with what hangs on it (in the deletion's transaction), unless
 * a project is still in it.
 */
export async function deletePersonalNamespace(trx: Transaction<Database>, username: string): Promise<void> {
  const namespace = await trx
    .selectFrom('groups')
    .select('id')
    .where('kind', '=', 'user')
    .where('parent_id', 'is', null)
    .where('path', '=', username)
    .executeTakeFirst();
  if (!namespace) return;
  const project = await trx
    .selectFrom('projects')
    .select('id')
    .where('namespace_id', '=', namespace.id)
    .limit(1)
    .executeTakeFirst();
  if (!project) await deleteGroupRowsIn(trx, [namespace.id]);
}
