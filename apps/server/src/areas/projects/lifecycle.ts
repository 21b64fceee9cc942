// The states of a project (document 2, section 3): archive and unarchive; delete, which in higher tiers only
// marks the project for deletion (removed by a delayed job) and otherwise removes it at once; restore of a
// marked project (higher tiers). All of them need the project's owner or an administrator.
import {
  AccessLevel,
  type ProjectAccess,
  resolveProject,
  resolveProjectForSignedIn,
} from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import { nowIso } from '../../core/store/database.js';
import { delayedProjectDeletion } from '../features/index.js';
import { PROJECT_DELETION_JOB, type ProjectDeletionPayload, purgeProject } from './deletion.js';
import { updateProject } from './store.js';

const DAY_MS = 86_400_000;

/** GitLab's `:archive_project` and `:remove_project`: the owner (50) or an administrator (60). */
function resolveForOwner(context: ServerContext, caller: Caller, projectId: string): Promise<ProjectAccess> {
  return resolveProjectForSignedIn(context.db, caller, projectId, 'api', AccessLevel.OWNER);
}

/** The project as it is now, for the caller (after a change: the cached access drops with the change). */
function reread(context: ServerContext, caller: Caller, access: ProjectAccess): Promise<ProjectAccess> {
  return resolveProject(context.db, caller, String(access.project.id));
}

/** Archives (`archived` true) or unarchives the project; idempotent either way. */
export async function setProjectArchived(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  archived: boolean,
): Promise<ProjectAccess> {
  const access = await resolveForOwner(context, caller, projectId);
  if ((access.project.archived === 1) === archived) return access;
  await updateProject(context.db, access.project.id, { archived: archived ? 1 : 0 });
  return reread(context, caller, access);
}

/**
 * Deletes the project. Higher tiers mark it for deletion (archived, as GitLab does) and queue its removal
 * after the instance's delay; a project marked already is a 400. Otherwise it goes at once.
 */
export async function deleteProject(
  context: ServerContext,
  caller: Caller,
  projectId: string,
): Promise<void> {
  const { project } = await resolveForOwner(context, caller, projectId);
  const delayed = delayedProjectDeletion(context);
  if (!delayed) {
    await purgeProject(context, project.id);
    return;
  }
  if (project.marked_for_deletion_at) throw badRequest('Project has been already marked for deletion');
  const markedAt = nowIso();
  await context.db.transaction().execute(async (trx) => {
    await updateProject(trx, project.id, { marked_for_deletion_at: markedAt, archived: 1 });
    const payload: ProjectDeletionPayload = { projectId: project.id, markedAt };
    await context.jobs.enqueue(PROJECT_DELETION_JOB, payload, {
      delayMs: delayed.delayDays * DAY_MS,
      executor: trx,
    });
  });
}

/**
 * Restores a project marked for deletion (higher tiers): unarchived and unmarked; its queued deletion finds
 * the mark gone and does nothing. Without the higher tier GitLab answers 404 (after the permission check).
 */
export async function restoreProject(
  context: ServerContext,
  caller: Caller,
  projectId: string,
): Promise<ProjectAccess> {
  const access = await resolveForOwner(context, caller, projectId);
  if (!delayedProjectDeletion(context)) throw notFound();
  if (!access.project.marked_for_deletion_at) throw badRequest('Project has not been marked for deletion');
  await updateProject(context.db, access.project.id, { marked_for_deletion_at: null, archived: 0 });
  return reread(context, caller, access);
}
