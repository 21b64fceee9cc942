// The notes area's queries: notes of one object, their authors, and award emoji.
import type { Insertable, Selectable, Transaction, Updateable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { Database, NotesTable } from '../../core/store/tables.js';
import { deleteTodosAboutNotes } from '../todos/index.js';

export type NoteRow = Selectable<NotesTable>;
export type NewNote = Insertable<NotesTable>;
export type NoteChanges = Updateable<NotesTable>;

/** The object a note is on. */
export interface NoteableKey {
  type: string;
  id: number;
}

export interface NoteOrder {
  orderBy: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
}

/** One page of an object's notes, internal ones only when `withInternal`; ties broken by ID, as GitLab. */
export function listNotes(
  db: Db,
  noteable: NoteableKey,
  withInternal: boolean,
  order: NoteOrder,
  window: PageWindow,
): Promise<Page<NoteRow>> {
  let filtered = db
    .selectFrom('notes')
    .where('noteable_type', '=', noteable.type)
    .where('noteable_id', '=', noteable.id);
  if (!withInternal) filtered = filtered.where('confidential', '=', 0);
  return readPageOf(
    db,
    filtered,
    (query) => query.selectAll().orderBy(order.orderBy, order.sort).orderBy('id', order.sort),
    window,
  );
}

export function findNote(db: Db, noteable: NoteableKey, noteId: number): Promise<NoteRow | undefined> {
  return db
    .selectFrom('notes')
    .selectAll()
    .where('id', '=', noteId)
    .where('noteable_type', '=', noteable.type)
    .where('noteable_id', '=', noteable.id)
    .executeTakeFirst();
}

export function insertNote(db: Db, note: NewNote): Promise<NoteRow> {
  return db.insertInto('notes').values(note).returningAll().executeTakeFirstOrThrow();
}

export function updateNote(db: Db, noteId: number, changes: NoteChanges): Promise<NoteRow> {
  return db
    .updateTable('notes')
    .set(changes)
    .where('id', '=', noteId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The table of each kind of object a note is on. */
const NOTEABLE_TABLES = {
  Issue: 'issues',
  MergeRequest: 'merge_requests',
  Snippet: 'snippets',
  Epic: 'epics',
} as const;

/**
 * Sets the object's `updated_at` to the note's time (GitLab's Note#touch_noteable, after a note is saved):
 * a comment is activity on the object, which lists sorted by `updated_at` show. Part of the note's write.
 */
export async function touchNoteable(
  db: Db,
  noteable: { type: keyof typeof NOTEABLE_TABLES; id: number },
  at: string,
): Promise<void> {
  await db
    .updateTable(NOTEABLE_TABLES[noteable.type])
    .set({ updated_at: at })
    .where('id', '=', noteable.id)
    .execute();
}

export async function deleteNote(db: Db, noteId: number): Promise<void> {
  await db.deleteFrom('notes').where('id', '=', noteId).execute();
}

/** What a note shows of its author. */
export interface NoteAuthor {
  id: number;
  username: string;
  email: string;
  name: string;
  state: string;
  avatar_url: string | null;
  created_at: string;
}

/** The users with these IDs, by ID (the authors of a page of notes, in one query). */
export async function authorsById(db: Db, ids: readonly number[]): Promise<Map<number, NoteAuthor>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'name', 'state', 'avatar_url', 'created_at'])
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** An award emoji row (table `award_emoji`, migration 021). */
export interface AwardRow {
  id: number;
  name: string;
  user_id: number;
  awardable_type: string;
  awardable_id: number;
  created_at: string;
  updated_at: string;
}

/** Whether the user already awarded this emoji to the object (GitLab's uniqueness validation). */
export async function hasAward(
  db: Db,
  noteable: NoteableKey,
  userId: number,
  name: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('award_emoji')
    .select('id')
    .where('awardable_type', '=', noteable.type)
    .where('awardable_id', '=', noteable.id)
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertAward(
  db: Db,
  noteable: NoteableKey,
  userId: number,
  name: string,
  at: string,
): Promise<AwardRow> {
  return db
    .insertInto('award_emoji')
    .values({
      name,
      user_id: userId,
      awardable_type: noteable.type,
      awardable_id: noteable.id,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The active users among these (whom a note's mentions may give a to-do). */
export function activeUsersAmong(db: Db, ids: readonly number[]) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', 'in', [...ids])
    .where('state', '=', 'active')
    .execute();
}

/**
 * What a user's deletion does to the user's notes and award emoji (in the deletion's transaction), as GitLab:
 * they move to the ghost user (MigrateRecordsToGhostUserService#migrate_notes, #migrate_award_emoji), an
 * emoji the ghost user already gave to the same object dropped (one emoji of a name per user and object);
 * with `hardDelete` they go, and the to-dos about those notes with them (User `has_many :notes,
 * :award_emoji, dependent: :destroy`).
 */
export async function handOverNotes(
  trx: Transaction<Database>,
  userId: number,
  ghostId: number,
  hardDelete: boolean,
): Promise<void> {
  if (hardDelete) {
    await deleteTodosAboutNotes(trx, trx.selectFrom('notes').select('id').where('author_id', '=', userId));
    await trx.deleteFrom('notes').where('author_id', '=', userId).execute();
    await trx.deleteFrom('award_emoji').where('user_id', '=', userId).execute();
    return;
  }
  await trx.updateTable('notes').set({ author_id: ghostId }).where('author_id', '=', userId).execute();
  await trx
    .deleteFrom('award_emoji as mine')
    .where('mine.user_id', '=', userId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('award_emoji as ghost')
          .select('ghost.id')
          .where('ghost.user_id', '=', ghostId)
          .whereRef('ghost.awardable_type', '=', 'mine.awardable_type')
          .whereRef('ghost.awardable_id', '=', 'mine.awardable_id')
          .whereRef('ghost.name', '=', 'mine.name'),
      ),
    )
    .execute();
  await trx.updateTable('award_emoji').set({ user_id: ghostId }).where('user_id', '=', userId).execute();
}
