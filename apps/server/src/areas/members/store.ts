// The members area's queries. Direct members are the `members` rows of one source. "All" members are every
// membership that counts for a source, one entry per user: the memberships of several sources (the project,
// the groups of its namespace chain, groups it is shared with and their ancestors), each possibly capped at
// a share's level. The user's entry carries the highest level of them all and the dates of the membership
// that ranks first (the source's own before inherited ones), as GitLab's MembersFinder and
// GroupMembersFinder answer.
import { type Expression, type SqlBool, sql, type Transaction } from 'kysely';
import { unexpiredMembership } from '../../core/access/membership.js';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import { containsIgnoringCase } from '../../core/store/search.js';
import type { Database } from '../../core/store/tables.js';

export interface MemberRow {
  user_id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
  access_level: number;
  created_at: string;
  expires_at: string | null;
  /** Who made the membership (null for fixtures and for a maker since deleted). */
  created_by_id: number | null;
  created_by_username: string | null;
  created_by_name: string | null;
  created_by_state: string | null;
  created_by_avatar_url: string | null;
}

/** The maker's columns of a membership row, from the `users as c` joined on its `created_by_id`. */
const CREATED_BY_COLUMNS = [
  'c.id as created_by_id',
  'c.username as created_by_username',
  'c.name as created_by_name',
  'c.state as created_by_state',
  'c.avatar_url as created_by_avatar_url',
] as const;

/** The memberships of some sources of one type, ranked (lower first) and possibly capped at a level. */
export interface MembershipSet {
  sourceType: 'Project' | 'Group';
  sourceIds: readonly number[];
  /** The rank of these memberships when a user has several: the entry's dates come from the first. */
  rank: number;
  /** The highest level these memberships give (a share's `group_access`), or none. */
  cap?: number;
}

export interface MemberFilter {
  /** Part of the name or username (ignoring case), or the exact public e-mail address. */
  query?: string;
  userIds: readonly number[];
  skipUserIds: readonly number[];
}

/**
 * The filter as one condition on the joined user `u`, or none. Raw SQL on `u` alone, so that the direct and
 * the "all" queries (different tables, one `users as u` each) share it.
 */
function filterCondition(filter: MemberFilter): Expression<SqlBool> | undefined {
  const conditions: Expression<SqlBool>[] = [];
  const text = filter.query;
  if (text !== undefined) {
    conditions.push(
      sql<SqlBool>`(${containsIgnoringCase(sql.ref('u.name'), text)} or ${containsIgnoringCase(
        sql.ref('u.username'),
        text,
      )} or lower(u.public_email) = ${text.toLowerCase()})`,
    );
  }
  if (filter.userIds.length > 0) conditions.push(sql<SqlBool>`u.id in (${sql.join([...filter.userIds])})`);
  if (filter.skipUserIds.length > 0)
    conditions.push(sql<SqlBool>`u.id not in (${sql.join([...filter.skipUserIds])})`);
  return conditions.length > 0 ? sql<SqlBool>`${sql.join(conditions, sql` and `)}` : undefined;
}

/** The direct members of one source, in the order they became members. */
export function pageOfDirectMembers(
  db: Db,
  source: { type: 'Project' | 'Group'; id: number },
  filter: MemberFilter,
  window: PageWindow,
): Promise<Page<MemberRow>> {
  const base = db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('users as c', 'c.id', 'm.created_by_id')
    .where('m.source_type', '=', source.type)
    .where('m.source_id', '=', source.id)
    .where(unexpiredMembership('m'));
  const condition = filterCondition(filter);
  const filtered = condition ? base.where(condition) : base;
  return readPageOf(
    db,
    filtered,
    (query) =>
      query
        .select([
          'm.user_id',
          'u.username',
          'u.name',
          'u.state',
          'u.avatar_url',
          'm.access_level',
          'm.created_at',
          'm.expires_at',
          ...CREATED_BY_COLUMNS,
        ])
        .orderBy('m.id'),
    window,
  );
}

/** Every membership of the sets, one row each, with its rank and its level after the cap. */
function candidateMemberships(db: Db, sets: readonly MembershipSet[]) {
  const parts = sets
    .filter((set) => set.sourceIds.length > 0)
    .map((set) =>
      db
        .selectFrom('members')
        .select([
          'members.id',
          'members.user_id',
          'members.created_at',
          'members.expires_at',
          'members.created_by_id',
          // CASE, not least()/min(a, b): SQL that SQLite and PostgreSQL share.
          (set.cap === undefined
            ? sql<number>`members.access_level`
            : sql<number>`case when members.access_level > ${sql.lit(set.cap)} then ${sql.lit(set.cap)} else members.access_level end`
          ).as('access_level'),
          // Literals, not parameters: PostgreSQL cannot type a bare parameter in a select list.
          sql<number>`${sql.lit(set.rank)}`.as('rank'),
        ])
        .where('members.source_type', '=', set.sourceType)
        .where('members.source_id', 'in', [...set.sourceIds])
        .where(unexpiredMembership('members')),
    );
  const [first, ...rest] = parts;
  if (!first) return undefined;
  return rest.reduce((union, part) => union.unionAll(part), first);
}

/**
 * One user's entry per user over the sets: the highest level, and the dates of the first membership by
 * rank (ties: the higher level, then the older row). Ordered by user ID, as GitLab's finders.
 */
function allMembersQuery(db: Db, sets: readonly MembershipSet[]) {
  const candidates = candidateMemberships(db, sets);
  if (!candidates) return undefined;
  const ranked = db
    .selectFrom(candidates.as('c'))
    .select([
      'c.user_id',
      'c.created_at',
      'c.expires_at',
      'c.created_by_id',
      sql<number>`max(c.access_level) over (partition by c.user_id)`.as('access_level'),
      sql<number>`row_number() over (partition by c.user_id order by c.rank, c.access_level desc, c.id)`.as(
        'position',
      ),
    ]);
  return db
    .selectFrom(ranked.as('r'))
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('users as c', 'c.id', 'r.created_by_id')
    .where('r.position', '=', 1);
}

export async function pageOfAllMembers(
  db: Db,
  sets: readonly MembershipSet[],
  filter: MemberFilter,
  window: PageWindow,
): Promise<Page<MemberRow>> {
  const base = allMembersQuery(db, sets);
  if (!base) return { items: [], total: 0 };
  const condition = filterCondition(filter);
  const filtered = condition ? base.where(condition) : base;
  return readPageOf(
    db,
    filtered,
    (query) =>
      query
        .select([
          'r.user_id',
          'u.username',
          'u.name',
          'u.state',
          'u.avatar_url',
          'r.access_level',
          'r.created_at',
          'r.expires_at',
          ...CREATED_BY_COLUMNS,
        ])
        .orderBy('r.user_id'),
    window,
  );
}

/**
 * One user's direct membership of one source, if it counts; with `includeExpired` also an expired one (the
 * answer to a write that gave it a last day of today).
 */
export function findDirectMember(
  db: Db,
  source: { type: 'Project' | 'Group'; id: number },
  userId: number,
  includeExpired = false,
): Promise<MemberRow | undefined> {
  const query = db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('users as c', 'c.id', 'm.created_by_id')
    .select([
      'm.user_id',
      'u.username',
      'u.name',
      'u.state',
      'u.avatar_url',
      'm.access_level',
      'm.created_at',
      'm.expires_at',
      ...CREATED_BY_COLUMNS,
    ])
    .where('m.source_type', '=', source.type)
    .where('m.source_id', '=', source.id)
    .where('m.user_id', '=', userId);
  return (includeExpired ? query : query.where(unexpiredMembership('m'))).executeTakeFirst();
}

/** One user's entry over the sets, if the user has any membership that counts. */
export async function findAnyMember(
  db: Db,
  sets: readonly MembershipSet[],
  userId: number,
): Promise<MemberRow | undefined> {
  const base = allMembersQuery(db, sets);
  if (!base) return undefined;
  return base
    .select([
      'r.user_id',
      'u.username',
      'u.name',
      'u.state',
      'u.avatar_url',
      'r.access_level',
      'r.created_at',
      'r.expires_at',
      ...CREATED_BY_COLUMNS,
    ])
    .where('r.user_id', '=', userId)
    .executeTakeFirst();
}

/** The groups a project is shared with, by shares that have not expired (`today`: an ISO date). */
export function activeShares(
  db: Db,
  projectId: number,
  today: string,
): Promise<{ group_id: number; group_access: number }[]> {
  return db
    .selectFrom('project_group_links')
    .select(['group_id', 'group_access'])
    .where('project_id', '=', projectId)
    .where(unexpiredMembership('project_group_links', today))
    .orderBy('id')
    .execute();
}

/** Adds a direct member of a group or project (fixtures). */
export async function insertMember(
  db: Db,
  member: {
    sourceType: 'Group' | 'Project';
    sourceId: number;
    userId: number;
    accessLevel: number;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('members')
    .values({
      source_type: member.sourceType,
      source_id: member.sourceId,
      user_id: member.userId,
      access_level: member.accessLevel,
      created_at: member.now,
    })
    .execute();
}

// Adding, changing and removing members through the API (issue 27).

export type Source = { type: 'Project' | 'Group'; id: number };

/** A user to add, by ID or by username (ignoring case). */
export function findUserFor(
  db: Db,
  who: { id: number } | { username: string },
): Promise<{ id: number } | undefined> {
  const query = db.selectFrom('users').select('id');
  return 'id' in who
    ? query.where('id', '=', who.id).executeTakeFirst()
    : query.where(sql<SqlBool>`lower(username) = ${who.username.toLowerCase()}`).executeTakeFirst();
}

/** A direct membership to make: who, at which level, until when, made by whom. */
export interface NewMember {
  userId: number;
  accessLevel: number;
  expiresAt: string | null;
  createdBy: number;
  now: string;
  today: string;
}

/**
 * Adds a direct member and drops the user's pending access request to the source (the membership answers
 * it), in one transaction. Returns false when the user became a member meanwhile.
 */
export function addMemberRow(db: Db, source: Source, member: NewMember): Promise<boolean> {
  return db.transaction().execute((trx) => addMemberIn(trx, source, member));
}

/**
 * Adds a direct member in the caller's transaction (adding one, approving an access request) and drops the
 * user's pending access request to the source. An expired membership is no membership (GitLab removes it
 * when it expires): the new one replaces it. Returns false, adding nothing, when the user is a member.
 */
export async function addMemberIn(
  trx: Transaction<Database>,
  source: Source,
  member: NewMember,
): Promise<boolean> {
  await trx
    .deleteFrom('members')
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .where('user_id', '=', member.userId)
    .where(sql<SqlBool>`not ${unexpiredMembership('members', member.today)}`)
    .execute();
  const existing = await trx
    .selectFrom('members')
    .select('id')
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .where('user_id', '=', member.userId)
    .executeTakeFirst();
  if (existing) return false;
  await trx
    .insertInto('members')
    .values({
      source_type: source.type,
      source_id: source.id,
      user_id: member.userId,
      access_level: member.accessLevel,
      created_at: member.now,
      expires_at: member.expiresAt,
      created_by_id: member.createdBy,
    })
    .execute();
  await trx
    .deleteFrom('access_requests')
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .where('user_id', '=', member.userId)
    .execute();
  return true;
}

/** Changes a direct member's level and, when given, the membership's last day. */
export async function updateMemberRow(
  db: Db,
  source: Source,
  userId: number,
  changes: { accessLevel: number; expiresAt?: string },
): Promise<void> {
  await db
    .updateTable('members')
    .set({
      access_level: changes.accessLevel,
      ...(changes.expiresAt === undefined ? {} : { expires_at: changes.expiresAt }),
    })
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .where('user_id', '=', userId)
    .execute();
}

/** How many distinct users own the groups (direct owners of any of them). */
export async function ownerCount(db: Db, groupIds: readonly number[]): Promise<number> {
  if (groupIds.length === 0) return 0;
  const row = await db
    .selectFrom('members')
    .select(sql<number>`count(distinct user_id)`.as('owners'))
    .where('source_type', '=', 'Group')
    .where('source_id', 'in', [...groupIds])
    .where('access_level', '>=', 50)
    .where(unexpiredMembership('members'))
    .executeTakeFirst();
  return Number(row?.owners ?? 0);
}

/** A group's descendants (without the group) and the projects of the group and of its descendants. */
export async function subtreeOfGroup(
  db: Db,
  groupId: number,
): Promise<{ subgroupIds: number[]; projectIds: number[] }> {
  const groups = await db
    .selectFrom('group_ancestors')
    .select(['group_id', 'depth'])
    .where('ancestor_id', '=', groupId)
    .execute();
  const all = groups.map((row) => row.group_id);
  const projects = await db.selectFrom('projects').select('id').where('namespace_id', 'in', all).execute();
  return {
    subgroupIds: groups.filter((row) => row.depth > 0).map((row) => row.group_id),
    projectIds: projects.map((row) => row.id),
  };
}

/**
 * Removes a direct member, in one transaction with, when asked, the user's direct memberships of the
 * subresources (a group's subgroups and projects) and the user's assignments to the issues and merge
 * requests of `unassignIn` projects.
 */
export async function removeMemberRows(
  db: Db,
  source: Source,
  userId: number,
  also: { subgroupIds: readonly number[]; projectIds: readonly number[]; unassignIn: readonly number[] },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const sources: [string, readonly number[]][] = [
      [source.type, [source.id]],
      ['Group', also.subgroupIds],
      ['Project', also.projectIds],
    ];
    for (const [type, ids] of sources) {
      if (ids.length === 0) continue;
      await trx
        .deleteFrom('members')
        .where('source_type', '=', type)
        .where('source_id', 'in', [...ids])
        .where('user_id', '=', userId)
        .execute();
    }
    if (also.unassignIn.length === 0) return;
    const projects = [...also.unassignIn];
    await trx
      .deleteFrom('issuable_users')
      .where('user_id', '=', userId)
      .where('role', '=', 'assignee')
      .where((eb) =>
        eb.or([
          eb.and([
            eb('issuable_type', '=', 'Issue'),
            eb('issuable_id', 'in', eb.selectFrom('issues').select('id').where('project_id', 'in', projects)),
          ]),
          eb.and([
            eb('issuable_type', '=', 'MergeRequest'),
            eb(
              'issuable_id',
              'in',
              eb.selectFrom('merge_requests').select('id').where('project_id', 'in', projects),
            ),
          ]),
        ]),
      )
      .execute();
  });
}

/** Removes every membership expired on `today` (an ISO date). */
export async function deleteExpiredMembers(db: Db, today: string): Promise<void> {
  await db
    .deleteFrom('members')
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', today)
    .execute();
}
