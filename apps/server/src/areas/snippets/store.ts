// The snippets area's queries: snippets (personal ones have no project) and their files.

import type { Expression, Insertable, Selectable, SqlBool, Transaction } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { Database, SnippetFilesTable, SnippetsTable } from '../../core/store/tables.js';
import { deleteWhatHangsOn } from '../issuables/index.js';

export type SnippetRow = Selectable<SnippetsTable>;
export type SnippetFileRow = Selectable<SnippetFilesTable>;

/** A file of a snippet as written: its path and content. */
export interface SnippetFile {
  path: string;
  content: string;
}

/**
 * Which snippets of a project a reader sees (SnippetsFinder): all of them (members, administrators), or
 * the public ones, the internal ones when signed in, and their own.
 */
export type ProjectSnippetScope = { all: true } | { all: false; signedIn: boolean; userId: number | null };

export function findPersonalSnippet(db: Db, id: number): Promise<SnippetRow | undefined> {
  return db
    .selectFrom('snippets')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', 'is', null)
    .executeTakeFirst();
}

export function findProjectSnippet(db: Db, projectId: number, id: number): Promise<SnippetRow | undefined> {
  return db
    .selectFrom('snippets')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

function snippetsQuery(db: Db) {
  return db.selectFrom('snippets');
}

export function listProjectSnippets(
  db: Db,
  projectId: number,
  scope: ProjectSnippetScope,
  window: PageWindow,
): Promise<Page<SnippetRow>> {
  const filtered = snippetsQuery(db)
    .where('project_id', '=', projectId)
    .where((eb) => {
      if (scope.all) return eb.lit(true);
      const readable: Expression<SqlBool>[] = [eb('visibility', '=', 'public')];
      if (scope.signedIn) readable.push(eb('visibility', '=', 'internal'));
      if (scope.userId !== null) readable.push(eb('author_id', '=', scope.userId));
      return eb.or(readable);
    });
  return readPageOf(db, filtered, (query) => query.selectAll().orderBy('id', 'desc'), window);
}

/** The personal snippets a user wrote (`GET /snippets`). */
export function listAuthoredPersonalSnippets(
  db: Db,
  authorId: number,
  window: PageWindow,
): Promise<Page<SnippetRow>> {
  const filtered = snippetsQuery(db).where('project_id', 'is', null).where('author_id', '=', authorId);
  return readPageOf(db, filtered, (query) => query.selectAll().orderBy('id', 'desc'), window);
}

/** Every public personal snippet (`GET /snippets/public`). */
export function listPublicPersonalSnippets(db: Db, window: PageWindow): Promise<Page<SnippetRow>> {
  const filtered = snippetsQuery(db).where('project_id', 'is', null).where('visibility', '=', 'public');
  return readPageOf(db, filtered, (query) => query.selectAll().orderBy('id', 'desc'), window);
}

/** The files of these snippets, each snippet's in path order (its first file names it). */
export async function filesOf(db: Db, snippetIds: readonly number[]): Promise<Map<number, SnippetFile[]>> {
  const files = new Map<number, SnippetFile[]>();
  if (snippetIds.length === 0) return files;
  const rows = await db
    .selectFrom('snippet_files')
    .selectAll()
    .where('snippet_id', 'in', [...snippetIds])
    .orderBy('snippet_id')
    .orderBy('path')
    .execute();
  for (const row of rows) {
    const list = files.get(row.snippet_id) ?? [];
    list.push({ path: row.path, content: row.content });
    files.set(row.snippet_id, list);
  }
  return files;
}

export interface NewSnippet {
  projectId: number | null;
  authorId: number;
  title: string;
  description: string | null;
  visibility: string;
  userAgent: string;
  ipAddress: string;
  now: string;
}

export function insertSnippet(db: Db, snippet: NewSnippet): Promise<SnippetRow> {
  return db
    .insertInto('snippets')
    .values({
      project_id: snippet.projectId,
      author_id: snippet.authorId,
      title: snippet.title,
      description: snippet.description,
      visibility: snippet.visibility,
      expires_at: null,
      user_agent: snippet.userAgent,
      ip_address: snippet.ipAddress,
      created_at: snippet.now,
      updated_at: snippet.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type SnippetChanges = Partial<Pick<SnippetRow, 'title' | 'description' | 'visibility'>>;

export function updateSnippet(db: Db, id: number, changes: SnippetChanges, now: string): Promise<SnippetRow> {
  return db
    .updateTable('snippets')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces all files of a snippet. */
export async function replaceFiles(db: Db, snippetId: number, files: readonly SnippetFile[]): Promise<void> {
  await db.deleteFrom('snippet_files').where('snippet_id', '=', snippetId).execute();
  if (files.length === 0) return;
  await db
    .insertInto('snippet_files')
    .values(files.map((file) => ({ snippet_id: snippetId, path: file.path, content: file.content })))
    .execute();
}

/** IDs per statement, well below the databases' limits on bound parameters. */
const DELETE_CHUNK = 500;

/**
 * Deletes snippets in the caller's transaction with what hangs on them, as GitLab's Snippet destroys its
 * notes and award emoji (`dependent: :destroy`) and to-dos about it go with their target; the files go by
 * foreign key. Returns how many snippets were still there.
 */
export async function deleteSnippets(trx: Transaction<Database>, ids: readonly number[]): Promise<number> {
  let deleted = 0;
  for (let start = 0; start < ids.length; start += DELETE_CHUNK) {
    const chunk = ids.slice(start, start + DELETE_CHUNK);
    await deleteWhatHangsOn(trx, 'Snippet', chunk);
    const result = await trx.deleteFrom('snippets').where('id', 'in', chunk).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}

/**
 * Deletes the snippets a user still wrote, with what hangs on them (in the caller's transaction): a
 * deletion of the user (GitLab's `delete_snippets`, after the project snippets moved to the ghost user).
 */
export async function deleteSnippetsOfAuthor(trx: Transaction<Database>, authorId: number): Promise<void> {
  const rows = await trx.selectFrom('snippets').select('id').where('author_id', '=', authorId).execute();
  const ids = rows.map((row) => row.id);
  await deleteSnippets(trx, ids);
}

/**
 * What a user's deletion does to the user's snippets (in the deletion's transaction), as GitLab: project
 * snippets move to the ghost user (MigrateRecordsToGhostUserService#migrate_snippets) unless `hardDelete`;
 * the others go with what hangs on them (`delete_snippets`).
 */
export async function handOverSnippets(
  trx: Transaction<Database>,
  userId: number,
  ghostId: number,
  hardDelete: boolean,
): Promise<void> {
  if (!hardDelete)
    await trx
      .updateTable('snippets')
      .set({ author_id: ghostId })
      .where('author_id', '=', userId)
      .where('project_id', 'is not', null)
      .execute();
  await deleteSnippetsOfAuthor(trx, userId);
}

/** Adds a snippet as given, with its files (fixtures); returns its ID. */
export async function insertFixtureSnippet(
  db: Db,
  snippet: Insertable<SnippetsTable>,
  files: Record<string, string>,
): Promise<number> {
  const { id } = await db.insertInto('snippets').values(snippet).returning('id').executeTakeFirstOrThrow();
  const rows = Object.entries(files).map(([path, content]) => ({ snippet_id: id, path, content }));
  if (rows.length > 0) await db.insertInto('snippet_files').values(rows).execute();
  return id;
}

/** The authors of a page's snippets. */
export function snippetAuthors(db: Db, ids: readonly number[]) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'name', 'state', 'created_at'])
    .where('id', 'in', [...ids])
    .execute();
}
