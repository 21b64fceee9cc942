// Notes on issues, merge requests, project snippets and epics (document 2, 4.4; where it is silent GitLab
// v4's lib/api/notes.rb, NotesHelpers, Notes::CreateService/UpdateService and NotePolicy). Every call needs a
// signed-in caller. The object must be one the caller may read (404 otherwise, from the area that owns it).
// Internal (confidential) notes are read by Reporters and above only; anyone who reads the object may
// comment, except on a locked discussion (members only) or in an archived project; authors edit and delete
// their own notes, Maintainers any; system notes are the server's and stay as written.

import { AccessLevel } from '../../core/access/access.js';
import {
  type Caller,
  type CallerUser,
  requireScope,
  requireUser,
  toCallerUser,
} from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, forbidden, invalidParameter, notFound } from '../../core/http/errors.js';
import type { RequestBody } from '../../core/http/types.js';
import { nowIso } from '../../core/store/database.js';
import { CachedUntilDatabaseChange } from '../../core/store/databaseVersion.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { createMentionTodos, mentionedUserIds } from '../todos/index.js';
import { awardEmojiName } from './emoji.js';
import type { Noteable, NoteableFinder } from './parents.js';
import { type AwardEmoji, type Note, presentAward, presentNote, presentNotes } from './present.js';
import {
  activeUsersAmong,
  deleteNote,
  findNote,
  hasAward,
  insertAward,
  insertNote,
  listNotes,
  type NoteChanges,
  type NoteOrder,
  type NoteRow,
  touchNoteable,
  updateNote,
} from './store.js';

// The issue note bodies are the widest: the other kinds' bodies are these without some properties.
type CreateNoteRequest = RequestBody<'createIssueNote'>;
type UpdateNoteRequest = RequestBody<'updateIssueNote'>;

/** Where a note call points: the finder of its kind of object, the project or group, the object's ID. */
export interface NoteableAddress {
  find: NoteableFinder;
  parent: string;
  noteableId: number;
}

const noteNotFound = () => notFound('Note');

/** GitLab's bad_request! for an invalid note ("Note {:note=>[...]}"). */
const invalidNote = (field: string, message: string) =>
  new ApiError(400, { message: `400 Bad request - Note {:${field}=>["${message}"]}` });

/** Reporters and above (and administrators) read and write internal notes (NotePolicy#can_read_internal_note). */
function readsInternal(noteable: Noteable): boolean {
  return noteable.accessLevel >= AccessLevel.REPORTER;
}

/** Administrators and owners of the project (or its group) set a note's recorded creation time. */
function setsCreatedAt(noteable: Noteable): boolean {
  return noteable.type !== 'Epic' && noteable.accessLevel >= AccessLevel.OWNER;
}

/** A date-time the schema let through but no Date holds (23:59:60) is a 400, not a 500. */
function timestamp(name: string, value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw invalidParameter(name);
  return new Date(time).toISOString();
}

function checkBody(body: string): string {
  if (body.trim() === '') throw invalidNote('note', "can't be blank");
  return body;
}

async function noteableFor(
  context: ServerContext,
  caller: Caller,
  address: NoteableAddress,
  scope: 'read_api' | 'api',
): Promise<{ user: CallerUser; noteable: Noteable }> {
  const user = requireUser(caller);
  requireScope(caller, scope);
  const noteable = await address.find(context, caller, address.parent, address.noteableId);
  return { user, noteable };
}

/** The note, if the caller may read it: an internal note is a 404 below Reporter, as a missing one. */
async function readableNote(context: ServerContext, noteable: Noteable, noteId: number): Promise<NoteRow> {
  const row = Number.isSafeInteger(noteId) ? await findNote(context.db, noteable, noteId) : undefined;
  if (!row || (row.confidential === 1 && !readsInternal(noteable))) throw noteNotFound();
  return row;
}

/** A locked discussion takes comments (and their edits) from members of the project or group only. */
function mayTakePart(noteable: Noteable): boolean {
  return !noteable.locked || noteable.accessLevel >= AccessLevel.GUEST;
}

/** Edit and delete (NotePolicy's admin_note): the author or a Maintainer; never a system note. */
function checkMayAdmin(user: CallerUser, noteable: Noteable, row: NoteRow): void {
  const allowed =
    row.system === 0 &&
    !noteable.archived &&
    mayTakePart(noteable) &&
    (row.author_id === user.id || noteable.accessLevel >= AccessLevel.MAINTAINER);
  if (!allowed) throw forbidden();
}

/**
 * The users an `@` mention in `body` may give a to-do: active users who may read the object (and the note,
 * when it is internal). Snippet notes make no to-dos (GitLab's Note#can_create_todo?). Decided before the
 * write's transaction, which must not wait on other reads.
 */
async function mentionReaders(
  context: ServerContext,
  address: NoteableAddress,
  noteable: Noteable,
  body: string,
  internal: boolean,
): Promise<Set<number>> {
  const readers = new Set<number>();
  if (noteable.type === 'Snippet') return readers;
  const ids = await mentionedUserIds(context.db, body);
  if (ids.length === 0) return readers;
  const rows = await activeUsersAmong(context.db, ids);
  for (const row of rows) {
    const mentioned: Caller = { user: toCallerUser(row), scopes: ['api'] };
    try {
      const seen = await address.find(context, mentioned, address.parent, address.noteableId);
      if (!internal || readsInternal(seen)) readers.add(row.id);
    } catch (error) {
      // The object is hidden from this user (404): no to-do.
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return readers;
}

/* Reads ------------------------------------------------------------------------------------------ */

/**
 * Presented pages of notes, kept until the database changes: a page's notes and their authors are read from
 * the database alone, so a discussion polled between two writes reads nothing but its object (whose check
 * of the caller's access runs every time, above). Shared between requests: never modified.
 */
const presentedPages = new CachedUntilDatabaseChange<Page<Note>>(200);

export async function listObjectNotes(
  context: ServerContext,
  caller: Caller,
  address: NoteableAddress,
  order: NoteOrder,
  window: PageWindow,
): Promise<Page<Note>> {
  const { noteable } = await noteableFor(context, caller, address, 'read_api');
  const internal = readsInternal(noteable);
  const key = JSON.stringify([noteable.type, noteable.id, noteable.iid, internal, order, window]);
  return presentedPages.get(context.db, key, async () => {
    const page = await listNotes(context.db, noteable, internal, order, window);
    return { items: await presentNotes(context.db, noteable, page.items), total: page.total };
  });
}

export async function getObjectNote(
  context: ServerContext,
  caller: Caller,
  address: NoteableAddress,
  noteId: number,
): Promise<Note> {
  const { noteable } = await noteableFor(context, caller, address, 'read_api');
  return presentNote(context.db, noteable, await readableNote(context, noteable, noteId));
}

/* Writes ----------------------------------------------------------------------------------------- */

/** An award emoji instead of a note (the body was only an emoji); a user awards an emoji once (400). */
async function awardEmoji(
  context: ServerContext,
  user: CallerUser,
  noteable: Noteable,
  name: string,
  origin: string,
): Promise<AwardEmoji> {
  const row = await context.db.transaction().execute(async (trx) => {
    if (await hasAward(trx, noteable, user.id, name)) return undefined;
    return insertAward(trx, noteable, user.id, name, nowIso());
  });
  if (!row) throw invalidNote('name', 'has already been taken');
  return presentAward(context.db, row, origin);
}

export async function createObjectNote(
  context: ServerContext,
  caller: Caller,
  address: NoteableAddress,
  body: CreateNoteRequest,
  origin: string,
): Promise<{ note: Note } | { award: AwardEmoji }> {
  const { user, noteable } = await noteableFor(context, caller, address, 'api');
  if (noteable.archived || !mayTakePart(noteable)) throw forbidden();
  const text = checkBody(body.body);
  const emoji = awardEmojiName(text);
  if (emoji !== undefined) return { award: await awardEmoji(context, user, noteable, emoji, origin) };

  // `internal` (or its former name `confidential`) only counts for those who may write internal notes.
  const internal = (body.internal ?? body.confidential) === true && readsInternal(noteable);
  if (internal && noteable.type === 'Snippet')
    throw invalidNote('confidential', 'can not be set for this resource');
  const now = nowIso();
  const createdAt =
    body.created_at !== undefined && setsCreatedAt(noteable) ? timestamp('created_at', body.created_at) : now;
  const readers = await mentionReaders(context, address, noteable, text, internal);

  const row = await context.db.transaction().execute(async (trx) => {
    const note = await insertNote(trx, {
      noteable_type: noteable.type,
      noteable_id: noteable.id,
      project_id: noteable.projectId,
      group_id: noteable.groupId,
      author_id: user.id,
      body: text,
      system: 0,
      confidential: internal ? 1 : 0,
      created_at: createdAt,
      // GitLab records a given creation time as the update time too.
      updated_at: createdAt,
    });
    await touchNoteable(trx, noteable, now);
    await createMentionTodos(
      trx,
      text,
      {
        authorId: user.id,
        target: { type: noteable.type, id: noteable.id },
        projectId: noteable.projectId,
        groupId: noteable.groupId,
        body: text,
        noteId: note.id,
      },
      async (userId) => readers.has(userId),
    );
    return note;
  });
  return { note: await presentNote(context.db, noteable, row) };
}

export async function updateObjectNote(
  context: ServerContext,
  caller: Caller,
  address: NoteableAddress,
  noteId: number,
  body: UpdateNoteRequest,
): Promise<Note> {
  const { user, noteable } = await noteableFor(context, caller, address, 'api');
  const row = await readableNote(context, noteable, noteId);
  checkMayAdmin(user, noteable, row);
  const text = checkBody(body.body);
  const changes: NoteChanges = { body: text, updated_at: nowIso() };
  if (body.created_at !== undefined && setsCreatedAt(noteable))
    changes.created_at = timestamp('created_at', body.created_at);
  // Only users the edit mentions for the first time get a to-do.
  const before = new Set(await mentionedUserIds(context.db, row.body));
  const readers = await mentionReaders(context, address, noteable, text, row.confidential === 1);

  const updated = await context.db.transaction().execute(async (trx) => {
    const note = await updateNote(trx, row.id, changes);
    await touchNoteable(trx, noteable, note.updated_at);
    await createMentionTodos(
      trx,
      text,
      {
        authorId: user.id,
        target: { type: noteable.type, id: noteable.id },
        projectId: noteable.projectId,
        groupId: noteable.groupId,
        body: text,
        noteId: note.id,
      },
      async (userId) => readers.has(userId),
      [...before],
    );
    return note;
  });
  return presentNote(context.db, noteable, updated);
}

export async function deleteObjectNote(
  context: ServerContext,
  caller: Caller,
  address: NoteableAddress,
  noteId: number,
): Promise<void> {
  const { user, noteable } = await noteableFor(context, caller, address, 'api');
  const row = await readableNote(context, noteable, noteId);
  checkMayAdmin(user, noteable, row);
  await context.db.transaction().execute((trx) => deleteNote(trx, row.id));
}
