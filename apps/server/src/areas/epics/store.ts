// The epics area's queries. An epic's iid comes from its group's counter in group_internal_ids, taken in the
// creating transaction; its labels are issuable_labels rows of type `Epic`; reactions are award_emoji rows.
// Lists name the epic table `i` and join `groups` unaliased (core/access's inMemberHierarchy tests
// `groups.id`).

import {
  type Expression,
  expressionBuilder,
  type Insertable,
  type Selectable,
  type SqlBool,
  sql,
  type Transaction,
} from 'kysely';
import { inMemberHierarchy } from '../../core/access/groupHierarchy.js';
import { type Db, nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import { containsIgnoringCase } from '../../core/store/search.js';
import type { Database, EpicsTable } from '../../core/store/tables.js';
import { deleteWhatHangsOn, type LabelFilter } from '../issuables/index.js';

export type EpicRow = Selectable<EpicsTable>;

/** issuable_labels and award_emoji name epics by this type. */
export const EPIC_TYPE = 'Epic';

/** Which groups' epics a list reads, relative to the group asked for. */
export interface GroupScope {
  groupId: number;
  ancestors: boolean;
  descendants: boolean;
}

/** The labels filter: epics with no label, with any, or with all of the named ones. */
export type { LabelFilter };

/** The reaction filter: the caller reacted with no emoji, with any, or with this one. */
export type ReactionFilter = { kind: 'none' } | { kind: 'any' } | { kind: 'name'; name: string };

/** What the caller may read: every epic (administrators), or per group by visibility and membership. */
export type ReaderScope = { admin: true } | { admin: false; userId: number };

export interface EpicFilters {
  state: 'opened' | 'closed' | 'all';
  authorId?: number;
  labels?: LabelFilter;
  search?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  /** The reactions of this user (the caller) the epics must have or lack. */
  reaction?: { userId: number; filter: ReactionFilter };
}

export interface EpicOrder {
  orderBy: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
}

const eb = expressionBuilder<Database, never>();
const rowId = sql.ref<number>('i.id');

/** The group IDs of the scope, as a subquery. */
function scopeGroups(scope: GroupScope): Expression<SqlBool> {
  const descendants = eb
    .selectFrom('group_ancestors as d')
    .select('d.group_id')
    .where('d.ancestor_id', '=', scope.groupId);
  const ancestors = eb
    .selectFrom('group_ancestors as a')
    .select('a.ancestor_id')
    .where('a.group_id', '=', scope.groupId);
  const groupId = sql.ref<number>('i.group_id');
  if (scope.ancestors && scope.descendants)
    return eb.or([eb(groupId, 'in', descendants), eb(groupId, 'in', ancestors)]);
  if (scope.ancestors) return eb(groupId, 'in', ancestors);
  if (scope.descendants) return eb(groupId, 'in', descendants);
  return eb(groupId, '=', scope.groupId);
}

/**
 * Whether the user holds at least `level` in the group of the row `groupColumn` names, through a membership
 * of that group or of one of its ancestors (memberships are inherited).
 */
export function levelInGroupCondition(
  userId: number,
  groupColumn: string,
  level: number,
): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('group_ancestors as up')
      .innerJoin('members as m', (join) =>
        join
          .onRef('m.source_id', '=', 'up.ancestor_id')
          .on('m.source_type', '=', 'Group')
          .on('m.user_id', '=', userId),
      )
      .select('m.user_id')
      .where('up.group_id', '=', sql.ref<number>(groupColumn))
      .where('m.access_level', '>=', level),
  );
}

/**
 * The epics a reader sees of the groups on the row: the group is one they may read (public and internal
 * groups for any signed-in user, private ones through a membership in its hierarchy) and the epic is not
 * confidential or the reader is a Reporter or above of its group (GitLab's EpicsFinder).
 */
function readableCondition(reader: ReaderScope, reporterLevel: number): Expression<SqlBool> {
  if (reader.admin) return sql<SqlBool>`1 = 1`;
  return eb.and([
    eb.or([
      eb(sql.ref<string>('groups.visibility'), 'in', ['public', 'internal']),
      inMemberHierarchy(reader.userId),
    ]),
    eb.or([
      eb(sql.ref<number>('i.confidential'), '=', 0),
      levelInGroupCondition(reader.userId, 'i.group_id', reporterLevel),
    ]),
  ]);
}

function labelCondition(filter: LabelFilter): Expression<SqlBool> {
  const labelsOfRow = () =>
    eb
      .selectFrom('issuable_labels as l')
      .select('l.name')
      .where('l.issuable_type', '=', EPIC_TYPE)
      .where('l.issuable_id', '=', rowId);
  if (filter.kind === 'none') return eb.not(eb.exists(labelsOfRow()));
  if (filter.kind === 'any') return eb.exists(labelsOfRow());
  return eb.and(filter.names.map((name) => eb.exists(labelsOfRow().where('l.name', '=', name))));
}

function reactionCondition(userId: number, filter: ReactionFilter): Expression<SqlBool> {
  let awards = eb
    .selectFrom('award_emoji as aw')
    .select('aw.id')
    .where('aw.awardable_type', '=', EPIC_TYPE)
    .where('aw.awardable_id', '=', rowId)
    .where('aw.user_id', '=', userId);
  if (filter.kind === 'none') return eb.not(eb.exists(awards));
  if (filter.kind === 'name') awards = awards.where('aw.name', '=', filter.name);
  return eb.exists(awards);
}

/** One page of the epics of the scope's groups the reader may see; ties of the order broken by ID. */
export function listEpics(
  db: Db,
  scope: GroupScope,
  reader: ReaderScope,
  reporterLevel: number,
  filters: EpicFilters,
  order: EpicOrder,
  window: PageWindow,
): Promise<Page<EpicRow>> {
  const filtered = db
    .selectFrom('epics as i')
    .innerJoin('groups', 'groups.id', 'i.group_id')
    .where((w) => {
      const conditions: Expression<SqlBool>[] = [
        scopeGroups(scope),
        readableCondition(reader, reporterLevel),
      ];
      if (filters.state !== 'all') conditions.push(w('i.state', '=', filters.state));
      if (filters.authorId !== undefined) conditions.push(w('i.author_id', '=', filters.authorId));
      if (filters.labels) conditions.push(labelCondition(filters.labels));
      if (filters.search !== undefined)
        conditions.push(
          w.or([
            containsIgnoringCase(sql.ref<string>('i.title'), filters.search),
            containsIgnoringCase(sql<string>`coalesce(i.description, '')`, filters.search),
          ]),
        );
      if (filters.createdAfter !== undefined) conditions.push(w('i.created_at', '>=', filters.createdAfter));
      if (filters.createdBefore !== undefined)
        conditions.push(w('i.created_at', '<=', filters.createdBefore));
      if (filters.updatedAfter !== undefined) conditions.push(w('i.updated_at', '>=', filters.updatedAfter));
      if (filters.updatedBefore !== undefined)
        conditions.push(w('i.updated_at', '<=', filters.updatedBefore));
      if (filters.reaction)
        conditions.push(reactionCondition(filters.reaction.userId, filters.reaction.filter));
      return w.and(conditions);
    });
  return readPageOf(
    db,
    filtered,
    (query) => query.selectAll('i').orderBy(`i.${order.orderBy}`, order.sort).orderBy('i.id', order.sort),
    window,
  );
}

export function findEpicByIid(db: Db, groupId: number, iid: number): Promise<EpicRow | undefined> {
  return db
    .selectFrom('epics')
    .selectAll()
    .where('group_id', '=', groupId)
    .where('iid', '=', iid)
    .executeTakeFirst();
}

export function findEpicsById(db: Db, ids: readonly number[]): Promise<EpicRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('epics').selectAll().where('id', 'in', ids).execute();
}

export function findEpicById(db: Db, id: number): Promise<EpicRow | undefined> {
  return db.selectFrom('epics').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The group's next epic iid: its counter row goes up by one, made on first use from the highest iid there.
 * Run it in the writing transaction (which holds the write lock), so two creations never share an iid.
 */
export async function nextEpicIid(db: Db, groupId: number): Promise<number> {
  const counter = await db
    .updateTable('group_internal_ids')
    .set({ last_value: sql<number>`last_value + 1` })
    .where('group_id', '=', groupId)
    .where('usage', '=', 'epics')
    .returning('last_value')
    .executeTakeFirst();
  if (counter) return counter.last_value;
  const highest = await db
    .selectFrom('epics')
    .select((s) => s.fn.max('iid').as('iid'))
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  const next = Number(highest?.iid ?? 0) + 1;
  await db
    .insertInto('group_internal_ids')
    .values({ group_id: groupId, usage: 'epics', last_value: next })
    .execute();
  return next;
}

export interface NewEpic {
  groupId: number;
  parentId: number | null;
  title: string;
  description: string | null;
  confidential: boolean;
  authorId: number;
  startDateIsFixed: boolean;
  startDateFixed: string | null;
  dueDateIsFixed: boolean;
  dueDateFixed: string | null;
}

export async function insertEpic(db: Db, epic: NewEpic): Promise<EpicRow> {
  const now = nowIso();
  const iid = await nextEpicIid(db, epic.groupId);
  const row = await db
    .insertInto('epics')
    .values({
      group_id: epic.groupId,
      iid,
      parent_id: epic.parentId,
      title: epic.title,
      description: epic.description,
      state: 'opened',
      confidential: epic.confidential ? 1 : 0,
      author_id: epic.authorId,
      start_date_is_fixed: epic.startDateIsFixed ? 1 : 0,
      start_date_fixed: epic.startDateFixed,
      start_date_inherited: null,
      start_date: epic.startDateIsFixed ? epic.startDateFixed : null,
      due_date_is_fixed: epic.dueDateIsFixed ? 1 : 0,
      due_date_fixed: epic.dueDateFixed,
      due_date_inherited: null,
      end_date: epic.dueDateIsFixed ? epic.dueDateFixed : null,
      closed_at: null,
      closed_by_id: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return row;
}

export type EpicChanges = Partial<
  Pick<
    EpicRow,
    | 'title'
    | 'description'
    | 'state'
    | 'confidential'
    | 'start_date_is_fixed'
    | 'start_date_fixed'
    | 'due_date_is_fixed'
    | 'due_date_fixed'
    | 'closed_at'
    | 'closed_by_id'
  >
>;

export async function updateEpic(db: Db, id: number, changes: EpicChanges): Promise<EpicRow> {
  return db
    .updateTable('epics')
    .set({ updated_at: nowIso(), ...changes })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Deletes the epic with what hangs on it (labels, reactions, notes, to-dos); its children stay, without a
 * parent (foreign key).
 */
export async function deleteEpic(db: Db, id: number): Promise<void> {
  await deleteWhatHangsOn(db, EPIC_TYPE, [id]);
  await db.deleteFrom('epics').where('id', '=', id).execute();
}

/**
 * Deletes the epics a user wrote, each as DELETE of an epic does, and refreshes their parents' dates (in
 * the caller's transaction): a hard deletion of the user, whose epics GitLab's foreign key on the author
 * deletes with it.
 */
export async function deleteEpicsOfAuthor(db: Db, authorId: number): Promise<void> {
  const rows = await db
    .selectFrom('epics')
    .select(['id', 'parent_id'])
    .where('author_id', '=', authorId)
    .execute();
  for (const row of rows) await deleteEpic(db, row.id);
  for (const parent of new Set(rows.map((row) => row.parent_id))) await refreshDates(db, parent);
}

/**
 * What a user's deletion does to epics (in the deletion's transaction), as GitLab: the epics the user wrote
 * move to the ghost user (EE MigrateRecordsToGhostUserService#migrate_epics), or with `hardDelete` go (the
 * foreign key on their author cascades); who closed an epic is forgotten in both cases (`epics.closed_by_id`
 * references users ON DELETE SET NULL).
 */
export async function handOverEpics(
  trx: Transaction<Database>,
  userId: number,
  ghostId: number,
  hardDelete: boolean,
): Promise<void> {
  await trx.updateTable('epics').set({ closed_by_id: null }).where('closed_by_id', '=', userId).execute();
  if (hardDelete) await deleteEpicsOfAuthor(trx, userId);
  else await trx.updateTable('epics').set({ author_id: ghostId }).where('author_id', '=', userId).execute();
}

/**
 * Recomputes the composite dates of the epic and then of each of its ancestors (GitLab's
 * Epics::UpdateDatesService): the inherited start is the earliest start of the children, the inherited due
 * date the latest due date; the effective date is the fixed one when `*_is_fixed`, else the inherited one.
 * Stops at the first ancestor whose dates do not change. Run it in the writing transaction.
 */
export async function refreshDates(db: Db, epicId: number | null): Promise<void> {
  // The depth of an epic tree is bounded (7 levels), and a cycle cannot be made through the API; the bound
  // keeps a corrupted row from looping.
  for (let id = epicId, steps = 0; id !== null && steps < 32; steps += 1) {
    const epic = await findEpicById(db, id);
    if (!epic) return;
    const children = await db
      .selectFrom('epics')
      .select((s) => [s.fn.min('start_date').as('start'), s.fn.max('end_date').as('due')])
      .where('parent_id', '=', id)
      .executeTakeFirst();
    const startInherited = (children?.start as string | null | undefined) ?? null;
    const dueInherited = (children?.due as string | null | undefined) ?? null;
    const startDate = epic.start_date_is_fixed === 1 ? epic.start_date_fixed : startInherited;
    const endDate = epic.due_date_is_fixed === 1 ? epic.due_date_fixed : dueInherited;
    if (
      startInherited === epic.start_date_inherited &&
      dueInherited === epic.due_date_inherited &&
      startDate === epic.start_date &&
      endDate === epic.end_date
    )
      return;
    await db
      .updateTable('epics')
      .set({
        start_date_inherited: startInherited,
        due_date_inherited: dueInherited,
        start_date: startDate,
        end_date: endDate,
      })
      .where('id', '=', id)
      .execute();
    id = epic.parent_id;
  }
}

/** The depth of the epic in its tree (1 for an epic without a parent). */
export async function depthOf(db: Db, epic: EpicRow): Promise<number> {
  let depth = 1;
  for (let parentId = epic.parent_id; parentId !== null && depth < 64; depth += 1) {
    const parent = await findEpicById(db, parentId);
    parentId = parent?.parent_id ?? null;
  }
  return depth;
}

/** Whether the epic has a child that is not confidential (a confidential epic may not have one). */
export async function hasPublicChild(db: Db, epicId: number): Promise<boolean> {
  const row = await db
    .selectFrom('epics')
    .select('id')
    .where('parent_id', '=', epicId)
    .where('confidential', '=', 0)
    .executeTakeFirst();
  return row !== undefined;
}

/* Labels and reactions --------------------------------------------------------------------------- */

/** The label names of each epic of the page, sorted by name. */
export async function labelsOf(db: Db, ids: readonly number[]): Promise<Map<number, string[]>> {
  const byId = new Map<number, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byId;
  const rows = await db
    .selectFrom('issuable_labels')
    .select(['issuable_id', 'name'])
    .where('issuable_type', '=', EPIC_TYPE)
    .where('issuable_id', 'in', [...ids])
    .orderBy('name')
    .execute();
  for (const row of rows) byId.get(row.issuable_id)?.push(row.name);
  return byId;
}

/** Replaces the epic's labels (in the caller's transaction). */
export async function replaceLabels(db: Db, id: number, names: readonly string[]): Promise<void> {
  await db
    .deleteFrom('issuable_labels')
    .where('issuable_type', '=', EPIC_TYPE)
    .where('issuable_id', '=', id)
    .execute();
  if (names.length === 0) return;
  await db
    .insertInto('issuable_labels')
    .values(names.map((name) => ({ issuable_type: EPIC_TYPE, issuable_id: id, name })))
    .execute();
}

/** The thumbs-up and thumbs-down count of each epic of the page (GitLab's upvotes and downvotes). */
export async function votesOf(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, { upvotes: number; downvotes: number }>> {
  const byId = new Map(ids.map((id) => [id, { upvotes: 0, downvotes: 0 }]));
  if (ids.length === 0) return byId;
  const rows = await db
    .selectFrom('award_emoji')
    .select((s) => ['awardable_id', 'name', s.fn.countAll().as('count')])
    .where('awardable_type', '=', EPIC_TYPE)
    .where('awardable_id', 'in', [...ids])
    .where('name', 'in', ['thumbsup', 'thumbsdown'])
    .groupBy(['awardable_id', 'name'])
    .execute();
  for (const row of rows) {
    const votes = byId.get(row.awardable_id);
    if (!votes) continue;
    if (row.name === 'thumbsup') votes.upvotes = Number(row.count);
    else votes.downvotes = Number(row.count);
  }
  return byId;
}

/** The groups of the page's epics: their full paths, by ID. */
export async function groupPaths(db: Db, groupIds: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(groupIds)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('groups').select(['id', 'full_path']).where('id', 'in', unique).execute();
  return new Map(rows.map((row) => [row.id, row.full_path]));
}

/** The caller's highest level in each of the groups, through memberships of them and of their ancestors. */
export async function levelsInGroups(
  db: Db,
  userId: number,
  groupIds: readonly number[],
): Promise<Map<number, number>> {
  const unique = [...new Set(groupIds)];
  const levels = new Map(unique.map((id) => [id, 0]));
  if (unique.length === 0) return levels;
  const rows = await db
    .selectFrom('group_ancestors as up')
    .innerJoin('members as m', (join) =>
      join
        .onRef('m.source_id', '=', 'up.ancestor_id')
        .on('m.source_type', '=', 'Group')
        .on('m.user_id', '=', userId),
    )
    .select((s) => ['up.group_id', s.fn.max('m.access_level').as('level')])
    .where('up.group_id', 'in', unique)
    .groupBy('up.group_id')
    .execute();
  for (const row of rows) levels.set(row.group_id, Number(row.level));
  return levels;
}

/** Whether group `ancestorId` is `groupId` or one of its ancestors. */
export async function isSelfOrAncestor(db: Db, groupId: number, ancestorId: number): Promise<boolean> {
  const row = await db
    .selectFrom('group_ancestors')
    .select('depth')
    .where('group_id', '=', groupId)
    .where('ancestor_id', '=', ancestorId)
    .executeTakeFirst();
  return row !== undefined;
}

/* Fixtures ---------------------------------------------------------------------------------------- */

/** Adds an epic as a fixtures file describes it, with its labels and reactions; returns its ID. */
export async function insertFixtureEpic(
  db: Db,
  epic: Insertable<EpicsTable>,
  labels: readonly string[],
  awards: readonly { name: string; userId: number }[],
): Promise<number> {
  const { id } = await db.insertInto('epics').values(epic).returning('id').executeTakeFirstOrThrow();
  for (const name of labels)
    await db
      .insertInto('issuable_labels')
      .values({ issuable_type: EPIC_TYPE, issuable_id: id, name })
      .execute();
  for (const award of awards)
    await db
      .insertInto('award_emoji')
      .values({
        name: award.name,
        user_id: award.userId,
        awardable_type: EPIC_TYPE,
        awardable_id: id,
        created_at: epic.created_at,
        updated_at: epic.created_at,
      })
      .execute();
  return id;
}

/** Sets an epic's inherited and effective dates. */
export async function setEpicDates(
  db: Db,
  id: number,
  dates: Pick<EpicRow, 'start_date_inherited' | 'due_date_inherited' | 'start_date' | 'end_date'>,
): Promise<void> {
  await db.updateTable('epics').set(dates).where('id', '=', id).execute();
}

/** Sets the group's epic counter (the last iid given). */
export async function setEpicCounter(db: Db, groupId: number, lastValue: number): Promise<void> {
  await db
    .insertInto('group_internal_ids')
    .values({ group_id: groupId, usage: 'epics', last_value: lastValue })
    .execute();
}
