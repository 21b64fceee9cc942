// Reading a project's hooks (document 2, section 4.3; GitLab's lib/api/project_hooks.rb): a signed-in caller
// with the project's admin_project right, maintainer (40) and above. 401 without a valid token, 404 for a
// project the caller may not see (and for a hook of another project), 403 below maintainer.
import { AccessLevel, type ProjectAccess, resolveProjectForSignedIn } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { notFound } from '../../core/http/errors.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { type ProjectHook, presentHook } from './present.js';
import { findHook, listHooks } from './store.js';

function resolveForHooks(context: ServerContext, caller: Caller, idOrPath: string): Promise<ProjectAccess> {
  return resolveProjectForSignedIn(context.db, caller, idOrPath, 'read_api', AccessLevel.MAINTAINER);
}

export async function listProjectHooks(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  window: PageWindow,
): Promise<Page<ProjectHook>> {
  const { project } = await resolveForHooks(context, caller, idOrPath);
  const page = await listHooks(context.db, project.id, window);
  return { items: page.items.map(presentHook), total: page.total };
}

export async function getProjectHook(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  hookId: number,
): Promise<ProjectHook> {
  const { project } = await resolveForHooks(context, caller, idOrPath);
  // A number beyond any ID (the validator takes `1e30` as an integer) names no hook.
  const row = Number.isSafeInteger(hookId) ? await findHook(context.db, project.id, hookId) : undefined;
  if (!row) throw notFound('Hook');
  return presentHook(row);
}
