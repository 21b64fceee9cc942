// Who may read and change snippets (GitLab's PersonalSnippetPolicy and ProjectSnippetPolicy, SnippetsFinder).
// Pure functions of the caller, their level in the snippet's project and the snippet's row.

import { AccessLevel } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ProjectSnippetScope, SnippetRow } from './store.js';

type SnippetOwnership = Pick<SnippetRow, 'visibility' | 'author_id'>;

function isAuthor(caller: Caller, row: SnippetOwnership): boolean {
  return caller.user !== null && caller.user.id === row.author_id;
}

/** Personal snippets: public to anyone, internal to signed-in users, private to the author; all to admins. */
export function mayReadPersonalSnippet(caller: Caller, row: SnippetOwnership): boolean {
  if (row.visibility === 'public') return true;
  if (!caller.user) return false;
  if (caller.user.isAdmin || isAuthor(caller, row)) return true;
  return row.visibility === 'internal';
}

/** Personal snippets are changed and deleted by their author and by administrators. */
export function mayChangePersonalSnippet(caller: Caller, row: SnippetOwnership): boolean {
  return caller.user !== null && (caller.user.isAdmin || isAuthor(caller, row));
}

/**
 * Project snippets, for a caller who sees the project and its snippets: members (and administrators) read
 * all of them; others the public ones, the internal ones when signed in, and their own.
 */
export function projectSnippetScope(caller: Caller, accessLevel: number): ProjectSnippetScope {
  if (accessLevel >= AccessLevel.GUEST) return { all: true };
  return { all: false, signedIn: caller.user !== null, userId: caller.user?.id ?? null };
}

export function mayReadProjectSnippet(caller: Caller, accessLevel: number, row: SnippetOwnership): boolean {
  const scope = projectSnippetScope(caller, accessLevel);
  if (scope.all || row.visibility === 'public' || isAuthor(caller, row)) return true;
  return row.visibility === 'internal' && scope.signedIn;
}

/** Reporters and above create snippets in a project (GitLab's :create_snippet). */
export function mayCreateProjectSnippet(accessLevel: number): boolean {
  return accessLevel >= AccessLevel.REPORTER;
}

/**
 * A project snippet is changed and deleted by maintainers and above (and administrators), and by its author
 * while they may still create snippets in the project.
 */
export function mayChangeProjectSnippet(caller: Caller, accessLevel: number, row: SnippetOwnership): boolean {
  if (accessLevel >= AccessLevel.MAINTAINER) return true;
  return isAuthor(caller, row) && mayCreateProjectSnippet(accessLevel);
}
