// Who may get a to-do about a project's object: only users who can read it (GitLab checks `read_issue`
// and friends before it makes a to-do). Active users who see the project read its issues and merge
// requests; a confidential issue only its author, its assignees and Reporters and above.
import { AccessLevel, canSee, type ProjectRow, projectAccessLevel } from '../../core/access/access.js';
import { type Caller, toCallerUser } from '../../core/access/caller.js';
import type { Db } from '../../core/store/database.js';
import { findUserRow } from './store.js';

/** What decides whether a user may read a project object. */
export interface ProjectTarget {
  project: ProjectRow;
  confidential?: boolean;
  /** The author and assignees of a confidential issue, who read it whatever their level. */
  participantIds?: readonly number[];
}

export async function userMayReadProjectTarget(
  db: Db,
  userId: number,
  target: ProjectTarget,
): Promise<boolean> {
  const row = await findUserRow(db, userId);
  if (row?.state !== 'active') return false;
  const user: Caller = { user: toCallerUser(row), scopes: [] };
  const level = await projectAccessLevel(db, user, target.project);
  if (!canSee(user, target.project.visibility, level)) return false;
  if (!target.confidential) return true;
  return level >= AccessLevel.REPORTER || (target.participantIds ?? []).includes(userId);
}
