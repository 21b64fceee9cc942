// Snippet rows → the API's Snippet (personal) and ProjectSnippet shapes (GitLab's snippet entities).

import type { Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { filesOf, type SnippetFile, type SnippetRow, snippetAuthors } from './store.js';

export type Snippet = Schemas['Snippet'];
export type ProjectSnippet = Schemas['ProjectSnippet'];
type Author = Schemas['AuthorWithEmail'];

/** GitLab's snippet repositories have one branch; the raw URL of a file names it. */
const ROOT_REF = 'main';

async function authorsOf(db: Db, rows: readonly SnippetRow[]): Promise<Map<number, Author>> {
  const ids = [...new Set(rows.map((row) => row.author_id))];
  const authors = new Map<number, Author>();
  if (ids.length === 0) return authors;
  const users = await snippetAuthors(db, ids);
  for (const user of users) authors.set(user.id, { ...user });
  return authors;
}

interface Parts {
  authors: Map<number, Author>;
  files: Map<number, SnippetFile[]>;
}

async function partsOf(db: Db, rows: readonly SnippetRow[]): Promise<Parts> {
  const [authors, files] = await Promise.all([
    authorsOf(db, rows),
    filesOf(
      db,
      rows.map((row) => row.id),
    ),
  ]);
  return { authors, files };
}

/** The fields both shapes share, for a snippet whose web page is `webUrl`. */
function common(row: SnippetRow, parts: Parts, webUrl: string) {
  const author = parts.authors.get(row.author_id);
  if (!author) throw new Error(`snippet ${row.id}: author ${row.author_id} is missing`);
  const files = parts.files.get(row.id) ?? [];
  return {
    id: row.id,
    title: row.title,
    file_name: files[0]?.path ?? '',
    description: row.description,
    author,
    updated_at: row.updated_at,
    created_at: row.created_at,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    files: files.map((file) => ({
      path: file.path,
      raw_url: `${webUrl}/raw/${ROOT_REF}/${encodeURIComponent(file.path).replaceAll('%2F', '/')}`,
    })),
  };
}

export async function presentSnippets(
  db: Db,
  rows: readonly SnippetRow[],
  origin: string,
): Promise<Snippet[]> {
  const parts = await partsOf(db, rows);
  return rows.map((row) => ({
    ...common(row, parts, `${origin}/-/snippets/${row.id}`),
    visibility: row.visibility as Snippet['visibility'],
    expires_at: row.expires_at,
    project_id: null,
  }));
}

/** Project snippets of the project at `projectPath` (its full path). */
export async function presentProjectSnippets(
  db: Db,
  rows: readonly SnippetRow[],
  origin: string,
  projectId: number,
  projectPath: string,
): Promise<ProjectSnippet[]> {
  const parts = await partsOf(db, rows);
  return rows.map((row) => ({
    ...common(row, parts, `${origin}/${projectPath}/-/snippets/${row.id}`),
    visibility: row.visibility as ProjectSnippet['visibility'] & string,
    project_id: projectId,
  }));
}

/** The raw content of a snippet: its first file's (GitLab sends the repository's first blob). */
export async function rawContentOf(db: Db, row: SnippetRow): Promise<string> {
  return (await filesOf(db, [row.id])).get(row.id)?.[0]?.content ?? '';
}
