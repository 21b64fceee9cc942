// The SQL of what issues and merge requests share (GitLab's "issuables"): the users they name, their label
// names and attached users (rows of issuable_labels and issuable_users), and the conditions of their lists'
// filters by labels, users and text.

import { type Expression, expressionBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { containsIgnoringCase } from '../../core/store/search.js';
import type { Database, UsersTable } from '../../core/store/tables.js';
import type { LabelFilter } from './parameters.js';

export type IssuableType = 'Issue' | 'MergeRequest';
export type IssuableRole = 'assignee' | 'reviewer';

/** A user as the embedded objects show them. */
export interface IssuableUser {
  id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
}

/** The users with these IDs, by ID (author, closed_by, merged_by of a page, in one query). */
export async function usersById(db: Db, ids: readonly number[]): Promise<Map<number, IssuableUser>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'name', 'state', 'avatar_url'])
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** `group/subgroup/project` of each project, by ID, in one query (issuables of several projects). */
export async function projectPathsById(db: Db, projectIds: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(projectIds)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('projects as p')
    .innerJoin('groups as g', 'g.id', 'p.namespace_id')
    .select(['p.id', 'p.path', 'g.full_path'])
    .where('p.id', 'in', unique)
    .execute();
  return new Map(rows.map((row) => [row.id, `${row.full_path}/${row.path}`]));
}

/** The label names of each issuable of the page, sorted (GitLab sorts them by title). */
export async function labelsOf(
  db: Db,
  type: IssuableType,
  ids: readonly number[],
): Promise<Map<number, string[]>> {
  const byId = new Map<number, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byId;
  const rows = await db
    .selectFrom('issuable_labels')
    .select(['issuable_id', 'name'])
    .where('issuable_type', '=', type)
    .where('issuable_id', 'in', [...ids])
    .orderBy('name')
    .execute();
  for (const row of rows) byId.get(row.issuable_id)?.push(row.name);
  return byId;
}

/** The users attached to each issuable of the page in one role, in the order they were given. */
export async function usersOf(
  db: Db,
  type: IssuableType,
  role: IssuableRole,
  ids: readonly number[],
): Promise<Map<number, IssuableUser[]>> {
  const byId = new Map<number, IssuableUser[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byId;
  const rows = await db
    .selectFrom('issuable_users as iu')
    .innerJoin('users as u', 'u.id', 'iu.user_id')
    .select(['iu.issuable_id', 'u.id', 'u.username', 'u.name', 'u.state', 'u.avatar_url'])
    .where('iu.issuable_type', '=', type)
    .where('iu.role', '=', role)
    .where('iu.issuable_id', 'in', [...ids])
    .orderBy('iu.position')
    .execute();
  for (const { issuable_id, ...user } of rows) byId.get(issuable_id)?.push(user);
  return byId;
}

/** Replaces the issuable's labels (in the caller's transaction). */
export async function replaceLabels(
  db: Db,
  type: IssuableType,
  id: number,
  names: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('issuable_labels')
    .where('issuable_type', '=', type)
    .where('issuable_id', '=', id)
    .execute();
  if (names.length === 0) return;
  await db
    .insertInto('issuable_labels')
    .values(names.map((name) => ({ issuable_type: type, issuable_id: id, name })))
    .execute();
}

/** Replaces the issuable's users in one role (in the caller's transaction). */
export async function replaceUsers(
  db: Db,
  type: IssuableType,
  id: number,
  role: IssuableRole,
  userIds: readonly number[],
): Promise<void> {
  await db
    .deleteFrom('issuable_users')
    .where('issuable_type', '=', type)
    .where('issuable_id', '=', id)
    .where('role', '=', role)
    .execute();
  if (userIds.length === 0) return;
  await db
    .insertInto('issuable_users')
    .values(
      userIds.map((userId, position) => ({
        issuable_type: type,
        issuable_id: id,
        role,
        user_id: userId,
        position,
      })),
    )
    .execute();
}

/* Deleting issuables ----------------------------------------------------------------------------- */

/**
 * The rows that hang on an issuable, an epic or a snippet by its type and ID (GitLab's polymorphic
 * associations): reactions, labels, assignees and reviewers, to-dos (those about its notes name it too) and
 * notes. A snippet has no labels nor assignees: those statements find nothing for it.
 */
const HANGING_ON_ISSUABLE = [
  ['award_emoji', 'awardable_type', 'awardable_id'],
  ['issuable_labels', 'issuable_type', 'issuable_id'],
  ['issuable_users', 'issuable_type', 'issuable_id'],
  ['todos', 'target_type', 'target_id'],
  ['notes', 'noteable_type', 'noteable_id'],
] as const;

/** IDs per statement, well below the databases' limits on bound parameters. */
const DELETE_CHUNK = 500;

/** What can have notes, reactions and to-dos hanging on it, by the type those rows name. */
export type HangingTarget = IssuableType | 'Epic' | 'Snippet';

/**
 * Deletes what hangs on these issuables, epics or snippets (in the caller's transaction); their own rows
 * are the caller's to delete.
 */
export async function deleteWhatHangsOn(db: Db, type: HangingTarget, ids: readonly number[]): Promise<void> {
  for (let start = 0; start < ids.length; start += DELETE_CHUNK) {
    const chunk = ids.slice(start, start + DELETE_CHUNK);
    // Table and column names from the list above, never from the request.
    for (const [table, typeColumn, idColumn] of HANGING_ON_ISSUABLE)
      await sql`delete from ${sql.table(table)}
        where ${sql.ref(typeColumn)} = ${type} and ${sql.ref(idColumn)} in (${sql.join(chunk)})`.execute(db);
  }
}

/* Filters ---------------------------------------------------------------------------------------- */
// Conditions on the issuable row of a list's query, which names its table `i` (`issues as i`,
// `merge_requests as i`).

const eb = expressionBuilder<Database, never>();
const rowId = sql.ref<number>('i.id');

/** The WHERE condition of the labels filter. */
export function labelCondition(type: IssuableType, filter: LabelFilter): Expression<SqlBool> {
  const labelsOfRow = () =>
    eb
      .selectFrom('issuable_labels as l')
      .select('l.name')
      .where('l.issuable_type', '=', type)
      .where('l.issuable_id', '=', rowId);
  if (filter.kind === 'none') return eb.not(eb.exists(labelsOfRow()));
  if (filter.kind === 'any') return eb.exists(labelsOfRow());
  return eb.and(filter.names.map((name) => eb.exists(labelsOfRow().where('l.name', '=', name))));
}

/** Whether a user is attached to the row in a role; without `userId`, whether anyone is. */
export function userCondition(type: IssuableType, role: IssuableRole, userId?: number): Expression<SqlBool> {
  let users = eb
    .selectFrom('issuable_users as u')
    .select('u.user_id')
    .where('u.issuable_type', '=', type)
    .where('u.role', '=', role)
    .where('u.issuable_id', '=', rowId);
  if (userId !== undefined) users = users.where('u.user_id', '=', userId);
  return eb.exists(users);
}

/** The `search` filter: the term in the title or the description, ignoring case. */
export function searchCondition(term: string): Expression<SqlBool> {
  return eb.or([
    containsIgnoringCase(sql.ref<string>('i.title'), term),
    containsIgnoringCase(sql<string>`coalesce(i.description, '')`, term),
  ]);
}

/** The users among `userIds` that exist and are active, in the order given (the candidates to assign). */
export async function activeUsers(db: Db, userIds: readonly number[]): Promise<Selectable<UsersTable>[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where('id', 'in', [...userIds])
    .where('state', '=', 'active')
    .execute();
  return userIds.flatMap((id) => rows.filter((row) => row.id === id));
}
