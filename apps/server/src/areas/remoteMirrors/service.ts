// Remote (push) mirrors of a project (document 1, section 4.6): create, list and update them, and schedule
// the push that brings a mirror up to date.
import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AccessLevel, resolveProjectForSignedIn } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { maskCredentials } from '../../core/git/repository.js';
import { ApiError, notFound } from '../../core/http/errors.js';
import type { RequestBody, Schemas } from '../../core/http/types.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { checkMirrorUrl, isInside, localPathOf, maskMirrorUrl } from './mirrorUrl.js';
import {
  enabledMirrorIds,
  findProjectMirror,
  hasQueuedJob,
  insertMirror,
  pageOfMirrors,
  type RemoteMirrorRow,
  updateProjectMirror,
} from './store.js';

export type RemoteMirror = Schemas['RemoteMirror'];
export type { RemoteMirrorRow } from './store.js';

/** The job that pushes one mirror; its payload is `{ mirrorId }`. */
export const MIRROR_UPDATE_JOB = 'remote-mirror-update';

export function presentRemoteMirror(row: RemoteMirrorRow): RemoteMirror {
  return {
    id: row.id,
    enabled: row.enabled === 1,
    url: maskMirrorUrl(row.url),
    update_status: row.update_status as RemoteMirror['update_status'],
    // Masked when stored already; masked again so no path can ever show a credential.
    last_error: row.last_error === null ? null : maskCredentials(row.last_error, row.url),
    last_successful_update_at: row.last_successful_update_at,
    last_update_at: row.last_update_at,
    last_update_started_at: row.last_update_started_at,
    only_protected_branches: row.only_protected_branches === 1,
    keep_divergent_refs: row.keep_divergent_refs === 1,
  };
}

const urlError = (message: string): ApiError => new ApiError(400, { message: { url: [message] } });

/** `path` with its deepest existing ancestor resolved through symlinks, so a link cannot hide where it is. */
async function realLocation(path: string): Promise<string> {
  let current = path;
  const missing: string[] = [];
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/**
 * Why git may not push to `url`, or null. Beyond the syntax rules, a file URL must not point into the
 * server's data directory: a maintainer could otherwise overwrite another project's repository.
 */
export async function mirrorUrlProblem(context: ServerContext, url: string): Promise<string | null> {
  const check = checkMirrorUrl(url);
  if (!check.ok) return check.message;
  const localPath = localPathOf(url);
  if (localPath !== undefined) {
    const [target, dataDir] = await Promise.all([realLocation(localPath), realLocation(context.dataDir)]);
    if (isInside(target, dataDir)) return "is blocked: it points into the server's data directory";
  }
  return null;
}

/**
 * Queues a push of the mirror unless one is already waiting (a burst of commits needs one push, which
 * sends the latest state). A push already running does not count: it may have read the branches too early.
 */
export async function scheduleMirrorUpdate(context: ServerContext, mirrorId: number): Promise<void> {
  const payload = JSON.stringify({ mirrorId });
  if (!(await hasQueuedJob(context.db, MIRROR_UPDATE_JOB, payload)))
    await context.jobs.enqueue(MIRROR_UPDATE_JOB, { mirrorId });
}

/** Called on every repository change: every enabled mirror of the project gets a push. */
export async function scheduleProjectMirrorUpdates(context: ServerContext, projectId: number): Promise<void> {
  for (const id of await enabledMirrorIds(context.db, projectId)) await scheduleMirrorUpdate(context, id);
}

export async function listRemoteMirrors(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  window: PageWindow,
): Promise<Page<RemoteMirror>> {
  // Mirrors need a signed-in maintainer: without a token the answer is 401, whatever the project.
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'read_api',
    AccessLevel.MAINTAINER,
  );
  const page = await pageOfMirrors(context.db, project.id, window);
  return { items: page.items.map(presentRemoteMirror), total: page.total };
}

export async function createRemoteMirror(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  body: RequestBody<'createRemoteMirror'>,
): Promise<RemoteMirror> {
  // Mirrors need a signed-in maintainer: without a token the answer is 401, whatever the project.
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'api',
    AccessLevel.MAINTAINER,
  );
  const problem = await mirrorUrlProblem(context, body.url);
  if (problem) throw urlError(problem);
  const row = await insertMirror(context.db, {
    projectId: project.id,
    url: body.url,
    enabled: body.enabled === true,
    onlyProtectedBranches: body.only_protected_branches === true,
    keepDivergentRefs: body.keep_divergent_refs === true,
  });
  if (row.enabled === 1) await scheduleMirrorUpdate(context, row.id);
  return presentRemoteMirror(row);
}

/** Changes the given settings; a mirror that is enabled afterwards is brought up to date. */
export async function updateRemoteMirror(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  mirrorId: number,
  body: RequestBody<'updateRemoteMirror'>,
): Promise<RemoteMirror> {
  // Mirrors need a signed-in maintainer: without a token the answer is 401, whatever the project.
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'api',
    AccessLevel.MAINTAINER,
  );
  const flag = (value: boolean | undefined): number | undefined =>
    value === undefined ? undefined : value ? 1 : 0;
  const changes = {
    enabled: flag(body.enabled),
    only_protected_branches: flag(body.only_protected_branches),
    keep_divergent_refs: flag(body.keep_divergent_refs),
  };
  const hasChanges = Object.values(changes).some((value) => value !== undefined);
  const row = hasChanges
    ? await updateProjectMirror(context.db, project.id, mirrorId, changes)
    : await findProjectMirror(context.db, project.id, mirrorId);
  if (!row) throw notFound('Remote mirror');
  if (row.enabled === 1) await scheduleMirrorUpdate(context, row.id);
  return presentRemoteMirror(row);
}
