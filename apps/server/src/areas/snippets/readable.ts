// What other areas read of project snippets (the notes on a project snippet): the snippet the caller may read.

import { resolveProject } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { mayReadProjectSnippet } from './rules.js';
import { filesOf, findProjectSnippet } from './store.js';

/** A project snippet as another area sees it; `file_name` is its first file's path. */
export interface ReadableProjectSnippet {
  id: number;
  project_id: number;
  title: string;
  file_name: string;
  description: string | null;
  visibility: string;
  author_id: number;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The snippet `snippetId` of project `projectId` if the caller may read it; undefined when the project has
 * no such snippet, its snippets are switched off, or the caller may not read it (private snippets: the
 * author and the project's members). A project the caller may not see is resolveProject's 404.
 */
export async function findReadableProjectSnippet(
  context: ServerContext,
  caller: Caller,
  projectId: number,
  snippetId: number,
): Promise<ReadableProjectSnippet | undefined> {
  const access = await resolveProject(context.db, caller, String(projectId));
  if (access.project.snippets_enabled !== 1 || !Number.isSafeInteger(snippetId)) return undefined;
  const row = await findProjectSnippet(context.db, access.project.id, snippetId);
  if (!row || row.project_id === null || !mayReadProjectSnippet(caller, access.accessLevel, row))
    return undefined;
  const files = (await filesOf(context.db, [row.id])).get(row.id) ?? [];
  return {
    id: row.id,
    project_id: row.project_id,
    title: row.title,
    file_name: files[0]?.path ?? '',
    description: row.description,
    visibility: row.visibility,
    author_id: row.author_id,
    expires_at: row.expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
