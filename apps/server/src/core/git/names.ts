/**
 * The names git and this server accept: file paths inside a tree, revisions passed as arguments, and branch
 * names (git's own rules, plus what git's ref storage can hold).
 */

import { CONFIG_ARGS, runGit } from './gitProcess.js';

/** A refusal with its reason, as the repository operations return them. */
export type Failure<R extends string> = { ok: false; reason: R; message: string };

export type PathCheck = { ok: true; path: string } | Failure<'path_traversal' | 'invalid_path'>;

/**
 * Checks a repository file path. `..` and absolute paths try to leave the tree (path_traversal); empty
 * paths, `.`/empty segments, `.git` segments and control characters are never valid tree entries.
 */
export function checkFilePath(filePath: string): PathCheck {
  const invalid = (message: string): PathCheck => ({ ok: false, reason: 'invalid_path', message });
  if (filePath.length === 0) return invalid('file path is empty');
  if (filePath.startsWith('/')) {
    return { ok: false, reason: 'path_traversal', message: 'file path must be relative' };
  }
  // NUL and newline would break git's line-oriented input (cat-file --batch, commit headers).
  if (/[\0\n\r]/.test(filePath)) return invalid('file path contains control characters');
  for (const segment of filePath.split('/')) {
    if (segment === '..') {
      return { ok: false, reason: 'path_traversal', message: 'file path cannot include directory traversal' };
    }
    if (segment === '' || segment === '.') return invalid('file path has an empty or "." segment');
    if (segment.toLowerCase() === '.git') return invalid('file path cannot contain a .git segment');
  }
  return { ok: true, path: filePath };
}

/** Refs are passed as arguments: one starting with `-` would be read as an option. */
export function isSafeRevision(ref: string): boolean {
  return ref.length > 0 && !ref.startsWith('-') && !/[\0\n\r]/.test(ref);
}

/**
 * check-ref-format sets no length limit, but git stores a new ref as a file `refs/heads/<name>` (and its
 * `.lock`): each `/`-separated part must fit the file system's NAME_MAX (255 bytes, less `.lock`), and the
 * whole name stays well inside PATH_MAX with the repository's own path in front.
 */
function fitsRefStorage(name: string): boolean {
  return Buffer.byteLength(name) <= 1024 && name.split('/').every((part) => Buffer.byteLength(part) <= 250);
}

/** Refuses revision syntax (`main^`, `a..b`, `x@{1}`, `:/`) where a plain branch name is expected. */
export function looksLikeBranchName(name: string): boolean {
  return isSafeRevision(name) && !/[\s~^:?*[\\\x7f]|\.\.|@\{/.test(name);
}

/**
 * git's own branch-name rules (`check-ref-format --branch`), for a name chosen before any repository exists
 * (a new project's default branch): the names GitRepository's branch writes accept.
 */
export async function isValidBranchName(name: string): Promise<boolean> {
  if (!isSafeRevision(name) || name === 'HEAD' || !fitsRefStorage(name)) return false;
  const result = await runGit([...CONFIG_ARGS, 'check-ref-format', '--branch', name]);
  // `--branch` expands shorthands such as `@{-1}`: only a name that stays itself is a branch name.
  return result.code === 0 && result.stdout.toString('utf8').trim() === name;
}
