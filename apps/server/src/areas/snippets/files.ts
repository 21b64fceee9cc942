// The files of a snippet as requests give them: the one-file form (`file_name` and `content`), the multi-file
// form of a create (`files` with `file_path` and `content`) and the file actions of an update (GitLab's
// SnippetInputAction: create, update, delete, move). Pure: the service stores what these return.

import { ApiError, badRequest } from '../../core/http/errors.js';
import type { RequestBody } from '../../core/http/types.js';
import type { SnippetFile } from './store.js';

export type FileAction = NonNullable<RequestBody<'updateSnippet'>['files']>[number];
type NewFile = NonNullable<RequestBody<'createSnippet'>['files']>[number];

/** GitLab's name for the file of a snippet created with an empty `file_name`. */
const DEFAULT_FILE_NAME = 'snippetfile1.txt';

const invalidActions = () => new ApiError(422, { error: 'Snippet actions have invalid data' });

/** Whether a string is blank as Rails sees it (empty or only white space). */
function isBlank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

/** A path the spec's SnippetFilePath allows: no leading `/`, no empty, `.` or `..` segment, no NUL. */
export function isValidFilePath(path: string): boolean {
  if (path === '' || path.length > 255 || path.includes('\0') || path.startsWith('/')) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

function checkPath(path: string, name: string): string {
  if (!isValidFilePath(path)) throw new ApiError(400, { error: `${name} should be a valid file path` });
  return path;
}

function byPath(files: SnippetFile[]): SnippetFile[] {
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The one file of the one-file form. */
export function singleFile(fileName: string, content: string): SnippetFile[] {
  if (isBlank(content)) throw new ApiError(400, { error: 'content is empty' });
  const path = fileName === '' ? DEFAULT_FILE_NAME : fileName;
  return [{ path, content }];
}

/** The files of a create's multi-file form; two files of one path are a 400. */
export function newFiles(files: readonly NewFile[]): SnippetFile[] {
  const result: SnippetFile[] = [];
  for (const file of files) {
    const path = checkPath(file.file_path, 'files[file_path]');
    if (isBlank(file.content)) throw new ApiError(400, { error: 'files[content] is empty' });
    if (result.some((other) => other.path === path)) throw badRequest('A file with this name already exists');
    result.push({ path, content: file.content });
  }
  return byPath(result);
}

/** The one-file form applied to a snippet of one file: a new name, new content, or both. */
export function changedSingleFile(
  files: readonly SnippetFile[],
  fileName: string | undefined,
  content: string | undefined,
): SnippetFile[] {
  if (files.length > 1)
    throw badRequest('To update Snippets with multiple files, you must use the `files` parameter');
  const current = files[0] ?? { path: DEFAULT_FILE_NAME, content: '' };
  if (content !== undefined && isBlank(content)) throw new ApiError(400, { error: 'content is empty' });
  const path = fileName === undefined ? current.path : fileName === '' ? DEFAULT_FILE_NAME : fileName;
  return [{ path, content: content ?? current.content }];
}

/** Checks one action's fields as GitLab's SnippetInputAction validates them (422 when they do not fit). */
function checkAction(action: FileAction): void {
  if (isBlank(action.file_path)) throw invalidActions();
  const needsContent = action.action === 'create' || action.action === 'update';
  if (needsContent && isBlank(action.content)) throw invalidActions();
  if (
    action.action === 'update' &&
    action.previous_path !== undefined &&
    action.previous_path !== '' &&
    action.previous_path !== action.file_path
  )
    throw invalidActions();
  if (
    action.action === 'move' &&
    (isBlank(action.previous_path) || action.previous_path === action.file_path)
  )
    throw invalidActions();
}

/**
 * The files after an update's actions, applied in order. A path that exists (create, move's target) or does
 * not (update, delete, move's source) against the action is a 400, as GitLab's commit of the actions fails;
 * so is an update that would leave the snippet without files.
 */
export function applyFileActions(
  files: readonly SnippetFile[],
  actions: readonly FileAction[],
): SnippetFile[] {
  for (const action of actions) checkAction(action);
  const result = files.map((file) => ({ ...file }));
  const indexOf = (path: string) => result.findIndex((file) => file.path === path);
  for (const action of actions) {
    const path = checkPath(action.file_path ?? '', 'files[file_path]');
    switch (action.action) {
      case 'create':
        if (indexOf(path) !== -1) throw badRequest('A file with this name already exists');
        result.push({ path, content: action.content ?? '' });
        break;
      case 'update': {
        const file = result[indexOf(path)];
        if (!file) throw badRequest("A file with this name doesn't exist");
        file.content = action.content ?? file.content;
        break;
      }
      case 'delete': {
        const at = indexOf(path);
        if (at === -1) throw badRequest("A file with this name doesn't exist");
        result.splice(at, 1);
        break;
      }
      case 'move': {
        const from = checkPath(action.previous_path ?? '', 'files[previous_path]');
        const file = result[indexOf(from)];
        if (!file) throw badRequest("A file with this name doesn't exist");
        if (indexOf(path) !== -1) throw badRequest('A file with this name already exists');
        file.path = path;
        if (action.content !== undefined) file.content = action.content;
        break;
      }
    }
  }
  if (result.length === 0) throw badRequest("Snippet files can't be empty");
  return byPath(result);
}
