// Rows → response bodies: GitLab's Entities::Note and Entities::AwardEmoji.
import type { Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import type { Noteable } from './parents.js';
import { type AwardRow, authorsById, type NoteAuthor, type NoteRow } from './store.js';

export type Note = Schemas['Note'];
export type AwardEmoji = Schemas['AwardEmoji'];

function presentAuthor(author: NoteAuthor): Note['author'] {
  return {
    id: author.id,
    username: author.username,
    email: author.email,
    name: author.name,
    state: author.state,
    created_at: author.created_at,
  };
}

/** The notes of a page (all on `noteable`), their authors read in one query. */
export async function presentNotes(db: Db, noteable: Noteable, rows: readonly NoteRow[]): Promise<Note[]> {
  const authors = await authorsById(
    db,
    rows.map((row) => row.author_id),
  );
  return rows.map((row) => {
    const author = authors.get(row.author_id);
    // The foreign key keeps every author; a missing one would be a broken database.
    if (!author) throw new Error(`note ${row.id}: author ${row.author_id} not found`);
    return {
      id: row.id,
      body: row.body,
      attachment: null,
      author: presentAuthor(author),
      created_at: row.created_at,
      updated_at: row.updated_at,
      system: row.system === 1,
      noteable_id: noteable.id,
      noteable_type: noteable.type,
      noteable_iid: noteable.iid,
      // Notes of this API are never part of a resolvable diff discussion.
      resolvable: false,
      confidential: row.confidential === 1,
    };
  });
}

export async function presentNote(db: Db, noteable: Noteable, row: NoteRow): Promise<Note> {
  const [note] = await presentNotes(db, noteable, [row]);
  if (!note) throw new Error(`note ${row.id} not presented`);
  return note;
}

export async function presentAward(db: Db, row: AwardRow, origin: string): Promise<AwardEmoji> {
  const user = (await authorsById(db, [row.user_id])).get(row.user_id);
  if (!user) throw new Error(`award ${row.id}: user ${row.user_id} not found`);
  return {
    id: row.id,
    name: row.name,
    user: {
      id: user.id,
      username: user.username,
      name: user.name,
      state: user.state,
      avatar_url: user.avatar_url,
      web_url: `${origin}/${user.username}`,
    },
    created_at: row.created_at,
    updated_at: row.updated_at,
    awardable_id: row.awardable_id,
    awardable_type: row.awardable_type,
  };
}
