// Deleting a group (issue 27; GitLab v4's DELETE /groups/:id and Groups::DestroyService): its owners, directly
// or through an ancestor, and administrators. Everything in it goes: the projects of the group and of its
// subgroups (each removed by the projects area: rows, repository, uploads), then in one transaction the rows
// of the groups (subgroups, epics, labels, badges, members, access requests, to-dos, settings), then their
// avatars. GitLab answers 202 and removes it in the background (higher tiers mark it for deletion first);
// here it is removed at once, before the answer, so that nothing of it is served afterwards.
import { AccessLevel, resolveGroupForSignedIn } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { badRequest } from '../../core/http/errors.js';
import type { QueryParams } from '../../core/http/types.js';
import { removeAvatars } from '../avatars/index.js';
import { purgeProject } from '../projects/index.js';
import { deleteGroupRows, projectIdsIn, subtreeOf } from './store.js';

export type DeleteGroupQuery = QueryParams<'deleteGroup'>;

export async function deleteGroup(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  query: DeleteGroupQuery,
): Promise<void> {
  const { db } = context;
  const { group } = await resolveGroupForSignedIn(db, caller, idOrPath, 'api', AccessLevel.OWNER);
  if (query.permanently_remove === true && query.full_path !== group.full_path)
    throw badRequest('`full_path` is incorrect. You must enter the complete path for the group.');
  await removeGroupTree(context, group.id);
}

/**
 * Removes a group with everything in it, whoever asks (the caller's rights are checked before): its projects
 * and those of its subgroups, then the rows of the groups, then their avatars. A group that is gone already
 * is no error (a deletion of the user who solely owned it and its subgroup removes the subgroup once).
 */
export async function removeGroupTree(context: ServerContext, groupId: number): Promise<void> {
  const { db } = context;
  const groupIds = await subtreeOf(db, groupId);
  for (const projectId of await projectIdsIn(db, groupIds)) await purgeProject(context, projectId);
  await deleteGroupRows(db, groupIds);
  await removeAvatars(context, 'group', groupIds);
}
