// The todos area's queries: a user's to-do items, created by the areas that change their targets.
import type { Insertable, Selectable, SelectQueryBuilder, Transaction } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { Database, TodosTable } from '../../core/store/tables.js';

export type TodoRow = Selectable<TodosTable>;

/** GitLab's to-do actions (the `action_name` of a to-do). */
export type TodoAction =
  | 'assigned'
  | 'mentioned'
  | 'build_failed'
  | 'marked'
  | 'approval_required'
  | 'unmergeable'
  | 'directly_addressed';

/** A to-do to make: whose, who caused it, why, about what, and where the target lives. */
export interface NewTodo {
  /** The user the to-do is for. */
  userId: number;
  /** The user whose action made it (the assigner, the mentioner; the user for `marked`). */
  authorId: number;
  action: TodoAction;
  /** The target object: `Issue`, `MergeRequest` or `Epic` (its database ID, not its iid). */
  target: { type: string; id: number };
  /** The target's project (issues, merge requests) … */
  projectId?: number | null;
  /** … or the target's group (epics). */
  groupId?: number | null;
  /** The text shown: the mentioning note's text, or the target's title. */
  body: string;
  /** The note that mentioned the user, if any. */
  noteId?: number | null;
}

/** What createTodo did: the pending to-do's ID, and whether it was made now (false: one was pending). */
export interface CreatedTodo {
  id: number;
  created: boolean;
}

/** A to-do's own fields as stored (its state, body and times), for the area that made it. */
export function findTodoRecord(
  db: Db,
  id: number,
): Promise<{ id: number; state: string; body: string; created_at: string; updated_at: string }> {
  return db
    .selectFrom('todos')
    .select(['id', 'state', 'body', 'created_at', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/**
 * Makes a pending to-do, unless the user already has a pending one for the same target and action (GitLab
 * keeps one pending to-do per target and action on the free tier). Pass a transaction to make it part of
 * a write, or the database for a write of its own.
 */
export async function insertTodo(db: Db, todo: NewTodo): Promise<CreatedTodo> {
  const pending = await db
    .selectFrom('todos')
    .select('id')
    .where('user_id', '=', todo.userId)
    .where('target_type', '=', todo.target.type)
    .where('target_id', '=', todo.target.id)
    .where('action', '=', todo.action)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  if (pending) return { id: pending.id, created: false };
  const now = nowIso();
  const row = await db
    .insertInto('todos')
    .values({
      user_id: todo.userId,
      author_id: todo.authorId,
      project_id: todo.projectId ?? null,
      group_id: todo.groupId ?? null,
      target_type: todo.target.type,
      target_id: todo.target.id,
      action: todo.action,
      body: todo.body,
      note_id: todo.noteId ?? null,
      state: 'pending',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, created: true };
}

/** Whether the user has a pending to-do about the target (any action, or the one given). */
export async function hasPendingTodo(
  db: Db,
  userId: number,
  target: { type: string; id: number },
  action?: TodoAction,
): Promise<boolean> {
  let query = db
    .selectFrom('todos')
    .select('id')
    .where('user_id', '=', userId)
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .where('state', '=', 'pending');
  if (action !== undefined) query = query.where('action', '=', action);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The filters of a list, already resolved to IDs. `projectId: null` matches to-dos without a project. */
export interface TodoFilters {
  state: 'pending' | 'done';
  action?: TodoAction;
  authorId?: number;
  projectId?: number | null;
  /** The group and its descendants' IDs: to-dos of these groups and of their projects. */
  groupIds?: readonly number[];
  type?: string;
  /** The target types the server can present (to-dos of others are not listed). */
  targetTypes: readonly string[];
}

/** One page of the user's to-dos, newest first (GitLab orders by ID, descending). */
export function listTodos(
  db: Db,
  userId: number,
  filters: TodoFilters,
  window: PageWindow,
): Promise<Page<TodoRow>> {
  let query = db
    .selectFrom('todos')
    .where('user_id', '=', userId)
    .where('state', '=', filters.state)
    .where('target_type', 'in', [...filters.targetTypes]);
  if (filters.action !== undefined) query = query.where('action', '=', filters.action);
  if (filters.authorId !== undefined) query = query.where('author_id', '=', filters.authorId);
  if (filters.projectId !== undefined)
    query =
      filters.projectId === null
        ? query.where('project_id', 'is', null)
        : query.where('project_id', '=', filters.projectId);
  if (filters.type !== undefined) query = query.where('target_type', '=', filters.type);
  const groupIds = filters.groupIds;
  if (groupIds !== undefined)
    query = query.where((eb) =>
      eb.or([
        eb('group_id', 'in', [...groupIds]),
        eb(
          'project_id',
          'in',
          eb
            .selectFrom('projects')
            .select('id')
            .where('namespace_id', 'in', [...groupIds]),
        ),
      ]),
    );
  return readPageOf(db, query, (q) => q.selectAll().orderBy('id', 'desc'), window);
}

export function findUserTodo(db: Db, userId: number, todoId: number): Promise<TodoRow | undefined> {
  return db
    .selectFrom('todos')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', todoId)
    .executeTakeFirst();
}

/** Marks the user's to-do done (a done one stays as it is) and returns it. */
export async function markTodoDone(db: Db, todoId: number): Promise<TodoRow | undefined> {
  await db
    .updateTable('todos')
    .set({ state: 'done', updated_at: nowIso() })
    .where('id', '=', todoId)
    .where('state', '=', 'pending')
    .execute();
  return db.selectFrom('todos').selectAll().where('id', '=', todoId).executeTakeFirst();
}

/** Marks all of the user's pending to-dos done. */
export async function markAllTodosDone(db: Db, userId: number): Promise<void> {
  await db
    .updateTable('todos')
    .set({ state: 'done', updated_at: nowIso() })
    .where('user_id', '=', userId)
    .where('state', '=', 'pending')
    .execute();
}

/** Marks the user's pending to-dos about the target done (GitLab does so when the user closes it). */
export async function markTargetTodosDone(
  db: Db,
  userId: number,
  target: { type: string; id: number },
): Promise<void> {
  await db
    .updateTable('todos')
    .set({ state: 'done', updated_at: nowIso() })
    .where('user_id', '=', userId)
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * What a user's deletion does to the to-dos the user caused for others (in the deletion's transaction): they
 * move to the ghost user (MigrateRecordsToGhostUserService#migrate_authored_todos); with `hardDelete` they
 * go with the user, as GitLab's foreign key on `todos.author_id` cascades (so does ours). The user's own
 * to-dos go with the user either way (`todos.user_id` cascades).
 */
export async function handOverTodos(
  trx: Transaction<Database>,
  userId: number,
  ghostId: number,
  hardDelete: boolean,
): Promise<void> {
  if (hardDelete) return;
  await trx.updateTable('todos').set({ author_id: ghostId }).where('author_id', '=', userId).execute();
}

/** Deletes the to-dos about these notes (in the caller's transaction; GitLab's `todos.note_id` cascades). */
export async function deleteTodosAboutNotes(
  trx: Transaction<Database>,
  noteIds: SelectQueryBuilder<Database, 'notes', { id: number }>,
): Promise<void> {
  await trx.deleteFrom('todos').where('note_id', 'in', noteIds).execute();
}

/** Adds a to-do as given (fixtures: any state, the target's times). */
export async function insertFixtureTodo(db: Db, todo: Insertable<TodosTable>): Promise<void> {
  await db.insertInto('todos').values(todo).execute();
}

/* What to-dos refer to ---------------------------------------------------------------------------- */

/** The active users with these usernames, ignoring case (`names` in lower case). */
export function activeUsersNamed(db: Db, names: readonly string[]) {
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where((eb) => eb(eb.fn('lower', ['username']), 'in', [...names]))
    .where('state', '=', 'active')
    .execute();
}

/** The IDs of the users with these usernames, ignoring case (`names` in lower case), whatever their state. */
export async function userIdsNamed(db: Db, names: readonly string[]): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['username']), 'in', [...names]))
    .execute();
  return rows.map((row) => row.id);
}

export function findUserRow(db: Db, userId: number) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function projectExists(db: Db, projectId: number): Promise<boolean> {
  return (
    (await db.selectFrom('projects').select('id').where('id', '=', projectId).executeTakeFirst()) !==
    undefined
  );
}

/** A group (not a personal namespace) and its descendants' IDs, or undefined when there is no such group. */
export async function groupWithDescendants(db: Db, groupId: number): Promise<number[] | undefined> {
  const group = await db
    .selectFrom('groups')
    .select('id')
    .where('id', '=', groupId)
    .where('kind', '=', 'group')
    .executeTakeFirst();
  if (!group) return undefined;
  const descendants = await db
    .selectFrom('group_ancestors')
    .select('group_id')
    .where('ancestor_id', '=', group.id)
    .execute();
  return descendants.map((row) => row.group_id);
}

/** The projects of a page's to-dos with their namespace's full path. */
export function todoProjectRows(db: Db, ids: readonly number[]) {
  return db
    .selectFrom('projects as p')
    .innerJoin('groups as g', 'g.id', 'p.namespace_id')
    .select(['p.id', 'p.name', 'p.path', 'p.namespace_id', 'g.full_path'])
    .where('p.id', 'in', [...ids])
    .execute();
}

/** The names of every group of these groups' chains, the farthest ancestor first. */
export function ancestorNames(db: Db, groupIds: readonly number[]) {
  return db
    .selectFrom('group_ancestors as a')
    .innerJoin('groups as g', 'g.id', 'a.ancestor_id')
    .select(['a.group_id', 'a.depth', 'g.name'])
    .where('a.group_id', 'in', [...groupIds])
    .orderBy('a.depth', 'desc')
    .execute();
}

/** The groups of a page's to-dos. */
export function todoGroupRows(db: Db, ids: readonly number[]) {
  return db
    .selectFrom('groups')
    .select(['id', 'name', 'path', 'full_path', 'parent_id'])
    .where('id', 'in', [...ids])
    .execute();
}
