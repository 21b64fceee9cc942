// The objects notes are on (GitLab's noteables): an issue, a merge request, a project snippet or an epic,
// found through the area that owns it, only if the caller may read it (else that area's 404, as GitLab's
// find_noteable). Notes see them all through one shape.

import { resolveProject } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { notFound } from '../../core/http/errors.js';
import { CachedUntilDatabaseChange } from '../../core/store/databaseVersion.js';
import { findReadableEpic } from '../epics/index.js';
import { findReadableIssue } from '../issues/index.js';
import { findReadableMergeRequest } from '../mergeRequests/index.js';
import { findReadableProjectSnippet } from '../snippets/index.js';

export type NoteableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'Epic';

/** An object the caller may read, with what the notes' rules need of it and of the caller. */
export interface Noteable {
  type: NoteableType;
  /** The object's database ID (`noteable_id`). */
  id: number;
  /** Its project- or group-scoped IID (`noteable_iid`); null for snippets. */
  iid: number | null;
  /** The project of an issue, merge request or snippet. */
  projectId: number | null;
  /** The group of an epic. */
  groupId: number | null;
  /** The caller's access level in that project or group (60 for administrators). */
  accessLevel: number;
  /** An archived project is read-only. */
  archived: boolean;
  /** A locked discussion: only members of the project or group comment. */
  locked: boolean;
}

/** Finds the object `noteableId` (an IID or an ID, as the path names it) under the project or group. */
export type NoteableFinder = (
  context: ServerContext,
  caller: Caller,
  parentIdOrPath: string,
  noteableId: number,
) => Promise<Noteable>;

const noteables = new CachedUntilDatabaseChange<Noteable>(5000);

/**
 * The finder, its answers kept until the database changes: every call on a note reads its object and the
 * caller's access first (three to five statements, most of a small list's time under load). The key holds
 * all the finders read of the caller; an object the caller may not read throws, and nothing is kept.
 */
function cached(type: NoteableType, find: NoteableFinder): NoteableFinder {
  return (context, caller, idOrPath, noteableId) => {
    const user = caller.user;
    const key = JSON.stringify([type, idOrPath, noteableId, user?.id, user?.isAdmin, caller.scopes]);
    return noteables.get(context.db, key, () => find(context, caller, idOrPath, noteableId));
  };
}

export const findIssueNoteable: NoteableFinder = cached('Issue', async (context, caller, idOrPath, iid) => {
  const { access, issue } = await findReadableIssue(context, caller, idOrPath, iid);
  return {
    type: 'Issue',
    id: issue.id,
    iid: issue.iid,
    projectId: access.project.id,
    groupId: null,
    accessLevel: access.accessLevel,
    archived: access.project.archived === 1,
    locked: issue.discussion_locked === 1,
  };
});

export const findMergeRequestNoteable: NoteableFinder = cached(
  'MergeRequest',
  async (context, caller, idOrPath, iid) => {
    const { access, mergeRequest } = await findReadableMergeRequest(context, caller, idOrPath, iid);
    return {
      type: 'MergeRequest',
      id: mergeRequest.id,
      iid: mergeRequest.iid,
      projectId: access.project.id,
      groupId: null,
      accessLevel: access.accessLevel,
      archived: access.project.archived === 1,
      locked: mergeRequest.discussion_locked === 1,
    };
  },
);

export const findSnippetNoteable: NoteableFinder = cached(
  'Snippet',
  async (context, caller, idOrPath, snippetId) => {
    const access = await resolveProject(context.db, caller, idOrPath);
    const snippet = await findReadableProjectSnippet(context, caller, access.project.id, snippetId);
    if (!snippet) throw notFound('Snippet');
    return {
      type: 'Snippet',
      id: snippet.id,
      iid: null,
      projectId: access.project.id,
      groupId: null,
      accessLevel: access.accessLevel,
      archived: access.project.archived === 1,
      locked: false,
    };
  },
);

/** An epic by its global ID (`epic_id`), in the group or one of the group's subgroups (the epics area's rule). */
export const findEpicNoteable: NoteableFinder = cached('Epic', async (context, caller, idOrPath, epicId) => {
  const { epic, accessLevel } = await findReadableEpic(context, caller, idOrPath, epicId);
  return {
    type: 'Epic',
    id: epic.id,
    iid: epic.iid,
    projectId: null,
    groupId: epic.group_id,
    accessLevel,
    // Groups are never archived, and epics have no discussion lock.
    archived: false,
    locked: false,
  };
});
