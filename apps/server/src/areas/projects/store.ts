// Queries of the projects area. A project list is one SQL query: the scope, the caller's visibility, the
// filters and the order are all WHERE and ORDER BY clauses over `projects`, so a page costs what its rows
// cost (GitLab's ProjectsFinder). Presenting a page reads its related rows in a few batched queries by the
// page's IDs, never one query per project.

import {
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type SqlBool,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { ProjectRow } from '../../core/access/access.js';
import { unexpiredMembership } from '../../core/access/membership.js';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import { containsIgnoringCase } from '../../core/store/search.js';
import type { Database } from '../../core/store/tables.js';

type ProjectsDb = Database & { p: Database['projects'] };
type Eb = ExpressionBuilder<ProjectsDb, 'p'>;
type Condition = Expression<SqlBool>;

/* The caller's group memberships ------------------------------------------------------------------ */

/**
 * The user's level in each of these groups, inherited from the group's ancestors: the highest membership
 * along the group's chain (the closure table gives the chain). One query for a page's groups; a group the
 * user reaches through no membership is absent.
 */
export async function groupLevelsOf(
  db: Db,
  userId: number,
  groupIds: readonly number[],
): Promise<Map<number, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('group_ancestors as a')
    .innerJoin('members as m', (join) =>
      join
        .onRef('m.source_id', '=', 'a.ancestor_id')
        .on('m.source_type', '=', 'Group')
        .on('m.user_id', '=', userId),
    )
    .select((eb) => ['a.group_id', eb.fn.max('m.access_level').as('level')])
    .where('a.group_id', 'in', groupIds)
    .groupBy('a.group_id')
    .execute();
  return new Map(rows.map((row) => [row.group_id, Number(row.level)]));
}

/** Who lists: nobody (anonymous), an administrator (sees everything), or a user. */
export type Viewer = { kind: 'anonymous' } | { kind: 'user'; userId: number; isAdmin: boolean };

/**
 * The user is a member of the group `groupId` or of one of its ancestors at `level` or above (an inherited
 * membership). Correlated: the group's ancestors come from the closure table (one index range) and each is
 * looked up in the members' unique index, so the cost per row does not grow with the number of groups or
 * projects the user belongs to.
 */
function memberOfGroupChain(groupId: Expression<number>, userId: number, level: number): Condition {
  // Nested rather than joined, so that the planner walks the row's few ancestors and not the user's
  // memberships (hundreds for a member of many groups).
  return sql<SqlBool>`exists (
    select 1 from group_ancestors
    where group_ancestors.group_id = ${groupId}
      and exists (
        select 1 from members
        where members.source_type = 'Group' and members.source_id = group_ancestors.ancestor_id
          and members.user_id = ${userId} and members.access_level >= ${level}))`;
}

/**
 * The viewer's access to the project `p` is at least `level`: a membership of the project, of its group or
 * an ancestor, or of a group the project is shared with (capped at the share's `group_access`, an expired
 * share giving nothing). Each part is an indexed lookup per row, evaluated only for the rows a page reads
 * (public and internal rows settle the visibility before it), so a page stops reading once it is full.
 */
function accessAtLeast(
  eb: Eb,
  viewer: Extract<Viewer, { kind: 'user' }>,
  level: number,
  options: { viaShares: boolean },
): Condition {
  const parts: Condition[] = [
    eb.exists(
      eb
        .selectFrom('members')
        .select(sql.lit(1).as('one'))
        .where('members.source_type', '=', 'Project')
        .whereRef('members.source_id', '=', 'p.id')
        .where('members.user_id', '=', viewer.userId)
        .where('members.access_level', '>=', level),
    ),
    memberOfGroupChain(eb.ref('p.namespace_id'), viewer.userId, level),
  ];
  if (options.viaShares)
    parts.push(
      eb.exists(
        eb
          .selectFrom('project_group_links as l')
          .select(sql.lit(1).as('one'))
          .whereRef('l.project_id', '=', 'p.id')
          .where('l.group_access', '>=', level)
          .where(unexpiredMembership('l'))
          .where(memberOfGroupChain(sql.ref('l.group_id'), viewer.userId, level)),
      ),
    );
  return eb.or(parts);
}

/** The projects the viewer may see (GitLab's `Project.public_or_visible_to_user`). */
function visibleTo(eb: Eb, viewer: Viewer): Condition {
  if (viewer.kind === 'anonymous') return eb('p.visibility', '=', 'public');
  if (viewer.isAdmin) return sql<SqlBool>`1 = 1`;
  return eb.or([
    eb('p.visibility', 'in', ['public', 'internal']),
    accessAtLeast(eb, viewer, 10, { viaShares: true }),
  ]);
}

/* Scopes and filters ------------------------------------------------------------------------------ */

/**
 * Which projects a list is about, before visibility and filters: every project, the projects of a user's
 * personal namespace, the projects of a group (with those of its subgroups and those shared with it, on
 * request), or the projects shared with a group.
 */
export type ProjectListScope =
  | { kind: 'all' }
  | { kind: 'userNamespace'; userId: number }
  | { kind: 'group'; groupId: number; includeSubgroups: boolean; withShared: boolean }
  | { kind: 'sharedWithGroup'; groupId: number };

export const PROJECT_ORDERS = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'] as const;
export type ProjectOrderBy = (typeof PROJECT_ORDERS)[number];

/** The filters of the project lists, already checked and normalised by the service. */
export interface ProjectFilters {
  archived?: boolean;
  visibility?: 'public' | 'internal' | 'private';
  search?: string;
  /** Match `search` against the full path (namespace included) too. */
  searchNamespaces?: boolean;
  owned?: boolean;
  membership?: boolean;
  starred?: boolean;
  withIssuesEnabled?: boolean;
  withMergeRequestsEnabled?: boolean;
  withProgrammingLanguage?: string;
  minAccessLevel?: number;
  idAfter?: number;
  idBefore?: number;
  /** ISO 8601 UTC (`toISOString`), as stored. */
  lastActivityAfter?: string;
  lastActivityBefore?: string;
  /** Every pair must match (administrators only: the service drops it for others). */
  customAttributes?: Readonly<Record<string, string>>;
}

export interface ProjectOrder {
  orderBy: ProjectOrderBy;
  sort: 'asc' | 'desc';
}

/** The descendants of a group, the group included (from the closure table of group ancestors). */
async function subtreeOf(db: Db, groupId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('group_ancestors')
    .select('group_id')
    .where('ancestor_id', '=', groupId)
    .execute();
  return rows.map((row) => row.group_id);
}

function sharedWith(eb: Eb, groupIds: number[]): Condition {
  return eb.exists(
    eb
      .selectFrom('project_group_links as l')
      .select(sql.lit(1).as('one'))
      .whereRef('l.project_id', '=', 'p.id')
      .where('l.group_id', 'in', groupIds)
      .where(unexpiredMembership('l')),
  );
}

async function scopeCondition(db: Db, scope: ProjectListScope): Promise<(eb: Eb) => Condition> {
  switch (scope.kind) {
    case 'all':
      return () => sql<SqlBool>`1 = 1`;
    case 'userNamespace':
      // A personal namespace is a `user` namespace at the top level whose path is the username.
      return (eb) =>
        eb(
          'p.namespace_id',
          'in',
          eb
            .selectFrom('groups as ns')
            .innerJoin('users as u', 'u.username', 'ns.full_path')
            .select('ns.id')
            .where('u.id', '=', scope.userId)
            .where('ns.kind', '=', 'user')
            .where('ns.parent_id', 'is', null),
        );
    case 'group': {
      const groupIds = scope.includeSubgroups ? await subtreeOf(db, scope.groupId) : [scope.groupId];
      return (eb) =>
        scope.withShared
          ? eb.or([eb('p.namespace_id', 'in', groupIds), sharedWith(eb, [scope.groupId])])
          : eb('p.namespace_id', 'in', groupIds);
    }
    case 'sharedWithGroup':
      return (eb) => sharedWith(eb, [scope.groupId]);
  }
}

function filterConditions(eb: Eb, viewer: Viewer, filters: ProjectFilters): Condition[] {
  const conditions: Condition[] = [];
  const user = viewer.kind === 'user' ? viewer : undefined;
  const none = sql<SqlBool>`1 = 0`;
  if (filters.archived !== undefined) conditions.push(eb('p.archived', '=', filters.archived ? 1 : 0));
  if (filters.visibility) conditions.push(eb('p.visibility', '=', filters.visibility));
  if (filters.search !== undefined) {
    const search = filters.search;
    const parts: Condition[] = [
      containsIgnoringCase(eb.ref('p.name'), search),
      containsIgnoringCase(eb.ref('p.path'), search),
    ];
    if (filters.searchNamespaces)
      parts.push(
        eb.exists(
          eb
            .selectFrom('groups as sns')
            .select(sql.lit(1).as('one'))
            .whereRef('sns.id', '=', 'p.namespace_id')
            .where(containsIgnoringCase(sql<string>`sns.full_path || '/' || p.path`, search)),
        ),
      );
    conditions.push(eb.or(parts));
  }
  // Owning, membership and stars need a user: an anonymous caller has none of them.
  if (filters.owned) conditions.push(user ? accessAtLeast(eb, user, 50, { viaShares: false }) : none);
  if (filters.membership) conditions.push(user ? accessAtLeast(eb, user, 10, { viaShares: true }) : none);
  if (filters.minAccessLevel !== undefined)
    conditions.push(user ? accessAtLeast(eb, user, filters.minAccessLevel, { viaShares: true }) : none);
  if (filters.starred)
    conditions.push(
      user
        ? eb(
            'p.id',
            'in',
            eb
              .selectFrom('project_stars')
              .select('project_stars.project_id')
              .where('project_stars.user_id', '=', user.userId),
          )
        : none,
    );
  if (filters.withIssuesEnabled) conditions.push(eb('p.issues_enabled', '=', 1));
  if (filters.withMergeRequestsEnabled) conditions.push(eb('p.merge_requests_enabled', '=', 1));
  if (filters.withProgrammingLanguage !== undefined)
    conditions.push(
      eb.exists(
        eb
          .selectFrom('project_languages as pl')
          .select(sql.lit(1).as('one'))
          .whereRef('pl.project_id', '=', 'p.id')
          .where(sql<SqlBool>`lower(pl.name) = ${filters.withProgrammingLanguage.toLowerCase()}`),
      ),
    );
  if (filters.idAfter !== undefined) conditions.push(eb('p.id', '>', filters.idAfter));
  if (filters.idBefore !== undefined) conditions.push(eb('p.id', '<', filters.idBefore));
  if (filters.lastActivityAfter !== undefined)
    conditions.push(eb('p.last_activity_at', '>', filters.lastActivityAfter));
  if (filters.lastActivityBefore !== undefined)
    conditions.push(eb('p.last_activity_at', '<', filters.lastActivityBefore));
  for (const [key, value] of Object.entries(filters.customAttributes ?? {}))
    conditions.push(
      eb.exists(
        eb
          .selectFrom('custom_attributes as ca')
          .select(sql.lit(1).as('one'))
          .where('ca.subject_type', '=', 'Project')
          .whereRef('ca.subject_id', '=', 'p.id')
          .where('ca.key', '=', key)
          .where('ca.value', '=', value),
      ),
    );
  return conditions;
}

/** The query of every project of the scope the viewer may see and the filters keep, selecting nothing yet. */
async function filteredProjects(db: Db, viewer: Viewer, scope: ProjectListScope, filters: ProjectFilters) {
  const inScope = await scopeCondition(db, scope);
  return db
    .selectFrom('projects as p')
    .where((eb) => eb.and([inScope(eb), visibleTo(eb, viewer), ...filterConditions(eb, viewer, filters)]));
}

/** The column an order sorts on. The service keeps no separate update time: a project changes with activity. */
const ORDER_COLUMNS = {
  id: 'p.id',
  name: 'p.name',
  path: 'p.path',
  created_at: 'p.created_at',
  updated_at: 'p.last_activity_at',
  last_activity_at: 'p.last_activity_at',
} as const satisfies Record<ProjectOrderBy, string>;

/** One page of the list by offset, and the list's total (counted once per database change). */
export async function readProjectPage(
  db: Db,
  viewer: Viewer,
  scope: ProjectListScope,
  filters: ProjectFilters,
  order: ProjectOrder,
  window: PageWindow,
): Promise<Page<ProjectRow>> {
  const filtered = await filteredProjects(db, viewer, scope, filters);
  return readPageOf(
    db,
    filtered,
    (query) =>
      query
        .selectAll('p')
        .orderBy(ORDER_COLUMNS[order.orderBy], order.sort)
        // The ID breaks ties, so pages neither repeat nor skip projects of equal names or times.
        .orderBy('p.id', order.sort),
    window,
  );
}

/**
 * Up to `limit` projects in ID order (keyset pagination: the cursor is the filters' `idAfter` or
 * `idBefore`), and whether more follow. No count: keyset pages carry no totals.
 */
export async function readProjectKeysetPage(
  db: Db,
  viewer: Viewer,
  scope: ProjectListScope,
  filters: ProjectFilters,
  sort: 'asc' | 'desc',
  limit: number,
): Promise<{ items: ProjectRow[]; more: boolean }> {
  const filtered = await filteredProjects(db, viewer, scope, filters);
  const rows = await filtered
    .selectAll('p')
    .orderBy('p.id', sort)
    .limit(limit + 1)
    .execute();
  return { items: rows.slice(0, limit), more: rows.length > limit };
}

/* Batched reads for presenting a page ---------------------------------------------------------------- */

export interface NamespaceChainRow {
  /** The namespace the chain starts from (a project's namespace_id). */
  start_id: number;
  id: number;
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
  kind: string;
  depth: number;
  /** A group's avatar file name, or null. */
  avatar: string | null;
}

/** The namespaces of the given IDs and all their ancestors, nearest first per namespace, in one query. */
export async function namespaceChains(
  db: Db,
  namespaceIds: readonly number[],
): Promise<Map<number, NamespaceChainRow[]>> {
  const chains = new Map<number, NamespaceChainRow[]>();
  if (namespaceIds.length === 0) return chains;
  // From the closure table (migration 016): one indexed join, whatever the depth.
  const rows = await db
    .selectFrom('group_ancestors as a')
    .innerJoin('groups as g', 'g.id', 'a.ancestor_id')
    .select([
      'a.group_id as start_id',
      'g.id',
      'g.name',
      'g.path',
      'g.full_path',
      'g.parent_id',
      'g.kind',
      'a.depth',
      'g.avatar',
    ])
    .where('a.group_id', 'in', [...new Set(namespaceIds)])
    .orderBy('a.group_id')
    .orderBy('a.depth')
    .execute();
  for (const row of rows) {
    const chain = chains.get(row.start_id) ?? [];
    chain.push(row);
    chains.set(row.start_id, chain);
  }
  return chains;
}

/** The number of stars of each project of the page. */
export async function starCounts(db: Db, projectIds: readonly number[]): Promise<Map<number, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('project_stars')
    .select(['project_id', (eb) => eb.fn.countAll().as('count')])
    .where('project_id', 'in', projectIds)
    .groupBy('project_id')
    .execute();
  return new Map(rows.map((row) => [row.project_id, Number(row.count)]));
}

/** The user's direct membership levels in the page's projects. */
export async function projectMemberLevels(
  db: Db,
  userId: number,
  projectIds: readonly number[],
): Promise<Map<number, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('members')
    .select(['source_id', 'access_level'])
    .where('user_id', '=', userId)
    .where('source_type', '=', 'Project')
    .where('source_id', 'in', projectIds)
    .execute();
  return new Map(rows.map((row) => [row.source_id, row.access_level]));
}

export interface ShareRow {
  project_id: number;
  group_id: number;
  group_name: string;
  group_full_path: string;
  group_access: number;
  expires_at: string | null;
}

/** The groups each project of the page is shared with. */
export async function sharesOf(db: Db, projectIds: readonly number[]): Promise<ShareRow[]> {
  if (projectIds.length === 0) return [];
  return db
    .selectFrom('project_group_links as l')
    .innerJoin('groups as g', 'g.id', 'l.group_id')
    .select([
      'l.project_id',
      'l.group_id',
      'g.name as group_name',
      'g.full_path as group_full_path',
      'l.group_access',
      'l.expires_at',
    ])
    .where('l.project_id', 'in', projectIds)
    .orderBy('l.id')
    .execute();
}

export interface OwnerRow {
  id: number;
  username: string;
  name: string;
  created_at: string;
}

/** The users owning the given personal namespaces (a personal namespace's path is its user's username). */
export async function usersNamed(db: Db, usernames: readonly string[]): Promise<Map<string, OwnerRow>> {
  if (usernames.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'name', 'created_at'])
    .where('username', 'in', [...new Set(usernames)])
    .execute();
  return new Map(rows.map((row) => [row.username, row]));
}

/* Users, starrers and languages ------------------------------------------------------------------- */

export async function findUserByIdOrUsername(
  db: Db,
  idOrUsername: string,
): Promise<{ id: number; username: string } | undefined> {
  const query = db.selectFrom('users').select(['id', 'username']);
  return /^\d+$/.test(idOrUsername)
    ? query.where('id', '=', Number(idOrUsername)).executeTakeFirst()
    : query.where('username', '=', idOrUsername).executeTakeFirst();
}

export interface StarrerRow {
  starred_since: string;
  id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
}

/** One page of a project's starrers, newest star first, optionally those whose username or name matches. */
export function readStarrerPage(
  db: Db,
  projectId: number,
  search: string | undefined,
  window: PageWindow,
): Promise<Page<StarrerRow>> {
  let filtered = db
    .selectFrom('project_stars as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .where('s.project_id', '=', projectId);
  if (search !== undefined) {
    filtered = filtered.where((eb) =>
      eb.or([
        containsIgnoringCase(eb.ref('u.username'), search),
        containsIgnoringCase(eb.ref('u.name'), search),
      ]),
    );
  }
  return readPageOf(
    db,
    filtered,
    (query) =>
      query
        .select(['s.created_at as starred_since', 'u.id', 'u.username', 'u.name', 'u.state', 'u.avatar_url'])
        .orderBy('s.created_at', 'desc')
        .orderBy('s.id', 'desc'),
    window,
  );
}

/** The stored languages of a project, largest share first. */
export function storedLanguages(db: Db, projectId: number): Promise<{ name: string; share: number }[]> {
  return db
    .selectFrom('project_languages')
    .select(['name', 'share'])
    .where('project_id', '=', projectId)
    .orderBy('share', 'desc')
    .orderBy('name')
    .execute();
}

/** Replaces the stored languages of a project, as detected at `generation`. */
export async function storeLanguages(
  db: Db,
  projectId: number,
  generation: number,
  languages: readonly { name: string; share: number }[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('project_languages').where('project_id', '=', projectId).execute();
    if (languages.length > 0)
      await trx
        .insertInto('project_languages')
        .values(languages.map((language) => ({ project_id: projectId, ...language })))
        .execute();
    await trx
      .updateTable('projects')
      .set({ languages_generation: generation })
      .where('id', '=', projectId)
      .execute();
  });
}

/** Projects whose stored languages are older than their repository (or never detected), a few at a time. */
export function projectsWithStaleLanguages(db: Db, limit: number): Promise<ProjectRow[]> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('languages_generation', 'is', null),
        eb('languages_generation', '<', eb.ref('repository_generation')),
      ]),
    )
    .orderBy('id')
    .limit(limit)
    .execute();
}

/* Creating and editing projects ------------------------------------------------------------------- */

/**
 * Which of `name` and `path` another project of the namespace already has (`exceptId`: the project being
 * edited). Paths compare ignoring case, as GitLab's routes do; names exactly.
 */
export async function takenInNamespace(
  db: Db,
  namespaceId: number,
  wanted: { name?: string; path?: string },
  exceptId?: number,
): Promise<{ name: boolean; path: boolean }> {
  const { name, path } = wanted;
  if (name === undefined && path === undefined) return { name: false, path: false };
  let query = db
    .selectFrom('projects')
    .select(['name', 'path'])
    .where('namespace_id', '=', namespaceId)
    .where((eb) =>
      eb.or([
        ...(name !== undefined ? [eb('name', '=', name)] : []),
        ...(path !== undefined ? [eb(eb.fn('lower', ['path']), '=', path.toLowerCase())] : []),
      ]),
    );
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const rows = await query.execute();
  return {
    name: name !== undefined && rows.some((row) => row.name === name),
    path: path !== undefined && rows.some((row) => row.path.toLowerCase() === path.toLowerCase()),
  };
}

/* Fixtures ---------------------------------------------------------------------------------------- */

/** Records that a user starred a project at `at`. */
export async function insertProjectStar(
  db: Db,
  projectId: number,
  userId: number,
  at: string,
): Promise<void> {
  await db
    .insertInto('project_stars')
    .values({ user_id: userId, project_id: projectId, created_at: at })
    .execute();
}

/** Shares a project with a group at an access level, without expiry. */
export async function insertProjectShare(
  db: Db,
  projectId: number,
  groupId: number,
  groupAccess: number,
): Promise<void> {
  await db
    .insertInto('project_group_links')
    .values({ project_id: projectId, group_id: groupId, group_access: groupAccess, expires_at: null })
    .execute();
}

/* Rows of one project ----------------------------------------------------------------------------- */

export function findProjectById(db: Db, projectId: number) {
  return db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
}

/** Changes columns of a project (archive, mark for deletion, restore, settings). */
export async function updateProject(
  db: Db,
  projectId: number,
  changes: Updateable<Database['projects']>,
): Promise<void> {
  await db.updateTable('projects').set(changes).where('id', '=', projectId).execute();
}

/** The import rows of these projects (their import status), oldest first. */
export function importsOf(db: Db, projectIds: readonly number[]) {
  if (projectIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('project_imports')
    .select(['project_id', 'status', 'import_error'])
    .where('project_id', 'in', [...projectIds])
    .orderBy('id')
    .execute();
}

/** Shares the project with a group (a unique violation when it is already). */
export function insertGroupLink(
  db: Db,
  link: { projectId: number; groupId: number; groupAccess: number; expiresAt: string | null },
) {
  return db
    .insertInto('project_group_links')
    .values({
      project_id: link.projectId,
      group_id: link.groupId,
      group_access: link.groupAccess,
      expires_at: link.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Stops sharing the project with the group; returns whether it was shared. */
export async function deleteGroupLink(db: Db, projectId: number, groupId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('project_group_links')
    .where('project_id', '=', projectId)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertUpload(
  db: Db,
  upload: {
    projectId: number;
    secret: string;
    filename: string;
    size: number;
    uploadedBy: number;
    at: string;
  },
): Promise<void> {
  await db
    .insertInto('project_uploads')
    .values({
      project_id: upload.projectId,
      secret: upload.secret,
      filename: upload.filename,
      size: upload.size,
      uploaded_by: upload.uploadedBy,
      created_at: upload.at,
    })
    .execute();
}

/** The stored name of the project's upload under this secret, or undefined. */
export function findUploadRow(db: Db, projectId: number, secret: string) {
  return db
    .selectFrom('project_uploads')
    .select(['filename'])
    .where('project_id', '=', projectId)
    .where('secret', '=', secret)
    .executeTakeFirst();
}

/** The ID of the user whose username is this (a personal namespace's owner), or undefined. */
export async function userIdByUsername(db: Db, username: string): Promise<number | undefined> {
  const user = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  return user?.id;
}

/** Adds a project, and its first member when given (in the caller's transaction); returns its row. */
export async function insertProject(
  db: Db,
  project: Insertable<Database['projects']>,
  member: { userId: number; level: number } | undefined,
): Promise<ProjectRow> {
  const row = await db.insertInto('projects').values(project).returningAll().executeTakeFirstOrThrow();
  if (member)
    await db
      .insertInto('members')
      .values({
        source_type: 'Project',
        source_id: row.id,
        user_id: member.userId,
        access_level: member.level,
        created_at: row.created_at,
      })
      .execute();
  return row;
}

/** Edits a project's settings; a new HEAD (`movesHead`) also starts a new repository generation. */
export async function updateProjectSettings(
  db: Db,
  projectId: number,
  changes: Updateable<Database['projects']>,
  movesHead: boolean,
): Promise<void> {
  await db
    .updateTable('projects')
    .set((eb) => ({
      ...changes,
      ...(movesHead ? { repository_generation: eb('repository_generation', '+', 1) } : {}),
    }))
    .where('id', '=', projectId)
    .execute();
}

/* Deleting a project ------------------------------------------------------------------------------ */

/**
 * The tables that hold rows of a project, read from the schema: a `project_id` column, or a polymorphic pair
 * (`source_type`/`source_id` of members and access requests, `subject_type`/`subject_id` of custom
 * attributes) naming a `Project`. Read from the schema rather than listed, so the tables later migrations add
 * (hooks, stars …) are purged too: foreign-key cascades cover most of them, never the polymorphic ones.
 */
async function tablesReferringToProjects(
  db: Db,
): Promise<{ byColumn: string[]; polymorphic: [string, string, string][] }> {
  const byColumn: string[] = [];
  const polymorphic: [string, string, string][] = [];
  for (const table of await db.introspection.getTables()) {
    const columns = new Set(table.columns.map((column) => column.name));
    if (columns.has('project_id')) byColumn.push(table.name);
    for (const [type, id] of [
      ['source_type', 'source_id'],
      ['subject_type', 'subject_id'],
    ] as const) {
      if (columns.has(type) && columns.has(id)) polymorphic.push([table.name, type, id]);
    }
  }
  return { byColumn, polymorphic };
}

/** Which payload field of a queued job names which of the project's objects. */
const JOB_PAYLOAD_OWNERS = {
  pipelineId: 'pipelines',
  mirrorId: 'remote_mirrors',
  moveId: 'project_repository_storage_moves',
} as const;

/**
 * Deletes the project's rows in every table, its queued jobs and the project, in one transaction. Returns
 * the paths of its import archives (files to remove after the commit), or undefined when it does not exist.
 */
export async function deleteProjectRows(db: Db, projectId: number): Promise<string[] | undefined> {
  const tables = await tablesReferringToProjects(db);
  const project = await db.selectFrom('projects').select('id').where('id', '=', projectId).executeTakeFirst();
  if (!project) return undefined;

  return db.transaction().execute(async (trx) => {
    // Jobs name their objects in their payloads: the project itself, or one of its pipelines, mirrors or
    // storage moves. Those still queued would only find nothing to do.
    const owned = new Map<string, Set<number>>([['projectId', new Set([projectId])]]);
    for (const [field, table] of Object.entries(JOB_PAYLOAD_OWNERS)) {
      const rows = await trx.selectFrom(table).select('id').where('project_id', '=', projectId).execute();
      owned.set(field, new Set(rows.map((row) => row.id)));
    }
    const queued = await trx
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('state', '=', 'queued')
      .execute();
    const jobIds = queued
      .filter((job) => {
        const payload = JSON.parse(job.payload) as Record<string, unknown>;
        return [...owned].some(
          ([field, ids]) => typeof payload[field] === 'number' && ids.has(payload[field]),
        );
      })
      .map((job) => job.id);
    if (jobIds.length > 0) await trx.deleteFrom('jobs').where('id', 'in', jobIds).execute();

    const archives = await trx
      .selectFrom('project_imports')
      .select('archive_path')
      .where('project_id', '=', projectId)
      .execute();
    // Table and column names from the schema (tablesReferringToProjects), never from the request.
    for (const table of tables.byColumn) {
      await sql`delete from ${sql.table(table)} where project_id = ${projectId}`.execute(trx);
    }
    for (const [table, typeColumn, idColumn] of tables.polymorphic) {
      await sql`delete from ${sql.table(table)}
        where ${sql.ref(typeColumn)} = 'Project' and ${sql.ref(idColumn)} = ${projectId}`.execute(trx);
    }
    await trx.deleteFrom('projects').where('id', '=', projectId).execute();
    return archives.flatMap((row) => (row.archive_path ? [row.archive_path] : []));
  });
}

/**
 * What a user's deletion does to the projects the user created (in the deletion's transaction): their
 * `creator_id` names the ghost user, as the user's other kept contributions do.
 */
export async function handOverCreatedProjects(
  trx: Transaction<Database>,
  userId: number,
  ghostId: number,
): Promise<void> {
  await trx.updateTable('projects').set({ creator_id: ghostId }).where('creator_id', '=', userId).execute();
}
