// Sharing a project with a group (document 2, 4.2; GitLab's Projects::GroupLinks services): the group's
// members get the share's level on the project, at most their own level in the group. core/access's
// projectAccessLevel reads the links, so a share takes effect on the next request.
import { AccessLevel, resolveGroup, resolveProjectForSignedIn } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import type { RequestBody, Schemas } from '../../core/http/types.js';
import { isUniqueViolation, todayIso } from '../../core/store/database.js';
import { deleteGroupLink, insertGroupLink } from './store.js';

export type ShareRequest = RequestBody<'shareProjectWithGroup'>;

export async function shareProjectWithGroup(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  body: ShareRequest,
): Promise<Schemas['ProjectGroupLink']> {
  const { db } = context;
  // GitLab: `authorize! :admin_project` (maintainer or above).
  const { project } = await resolveProjectForSignedIn(db, caller, projectId, 'api', AccessLevel.MAINTAINER);
  // A group the caller may not see is a 404, as if it did not exist (GitLab: "404 Group Not Found").
  const { group } = await resolveGroup(db, caller, String(body.group_id));
  const expiresAt = body.expires_at ?? null;
  if (expiresAt !== null && expiresAt < todayIso())
    throw badRequest('expires_at cannot be a date in the past');
  try {
    const link = await insertGroupLink(db, {
      projectId: project.id,
      groupId: group.id,
      groupAccess: body.group_access,
      expiresAt,
    });
    return presentLink(link);
  } catch (error) {
    // GitLab's validation message on the link, answered with 409.
    if (isUniqueViolation(error)) throw conflict('Group already shared with this group');
    throw error;
  }
}

export async function unshareProjectWithGroup(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  groupId: number,
): Promise<void> {
  const { db } = context;
  const { project } = await resolveProjectForSignedIn(db, caller, projectId, 'api', AccessLevel.MAINTAINER);
  if (!(await deleteGroupLink(db, project.id, groupId))) throw notFound('Group Link');
}

function presentLink(link: {
  id: number;
  project_id: number;
  group_id: number;
  group_access: number;
  expires_at: string | null;
}): Schemas['ProjectGroupLink'] {
  return {
    id: link.id,
    project_id: link.project_id,
    group_id: link.group_id,
    group_access: link.group_access as Schemas['ProjectGroupLink']['group_access'],
    expires_at: link.expires_at,
  };
}
