// Deploy keys (document 1, section 4.5). A key is stored once per distinct public key (by its SHA-256
// fingerprint) and enabled for projects through deploy_keys_projects, which carries each project's can_push.

import { AccessLevel, projectAccessLevel, resolveProjectForSignedIn } from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { toBoolean } from '../../core/http/booleans.js';
import { ApiError, forbidden, notFound } from '../../core/http/errors.js';
import type { RequestBody, Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { isUniqueViolation } from '../../core/store/database.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { md5FingerprintOfLine, parseSshPublicKey } from './sshPublicKey.js';
import {
  type DeployKeyRow,
  findKeyByFingerprint,
  findProjectKey,
  insertKey,
  insertKeyUse,
  keyExists,
  pageOfKeys,
  pageOfProjectKeys,
  projectsUsingKey,
  removeKeyUse,
  setKeyCanPush,
  setKeyTitle,
} from './store.js';

export type DeployKey = Schemas['DeployKey'];
export type DeployKeyInstance = Schemas['DeployKeyInstance'];
type AddDeployKeyRequest = RequestBody<'addDeployKey'>;
type UpdateDeployKeyRequest = RequestBody<'updateDeployKey'>;

/** GitLab's limit on a key title. */
const MAX_TITLE_LENGTH = 255;

const keyTaken = (): ApiError =>
  new ApiError(400, { message: { 'deploy_key.fingerprint_sha256': ['has already been taken'] } });
const deployKeyNotFound = (): ApiError => notFound('Deploy Key');

function presentInstanceKey(row: DeployKeyRow): DeployKeyInstance {
  return {
    id: row.id,
    title: row.title,
    key: row.key,
    fingerprint: md5FingerprintOfLine(row.key),
    fingerprint_sha256: row.fingerprint_sha256,
    created_at: row.created_at,
  };
}

function presentProjectKey(row: DeployKeyRow & { can_push: number }): DeployKey {
  return { ...presentInstanceKey(row), can_push: row.can_push === 1 };
}

async function findPresentedProjectKey(
  db: Db,
  projectId: number,
  keyId: number,
): Promise<DeployKey | undefined> {
  const row = await findProjectKey(db, projectId, keyId);
  return row ? presentProjectKey(row) : undefined;
}

async function requireProjectKey(db: Db, projectId: number, keyId: number): Promise<DeployKey> {
  const key = await findPresentedProjectKey(db, projectId, keyId);
  if (!key) throw deployKeyNotFound();
  return key;
}

/** A key is accessible to administrators and to the maintainers of any project that uses it. */
async function canAccessKey(db: Db, caller: Caller, keyId: number): Promise<boolean> {
  if (caller.user?.isAdmin) return true;
  for (const project of await projectsUsingKey(db, keyId)) {
    if ((await projectAccessLevel(db, caller, project)) >= AccessLevel.MAINTAINER) return true;
  }
  return false;
}

function checkTitle(title: unknown): string {
  const trimmed = typeof title === 'string' ? title.trim() : '';
  if (trimmed === '') throw new ApiError(400, { message: { title: ["can't be blank"] } });
  // Characters as GitLab (and the spec's maxLength) count them: code points, not UTF-16 units.
  if ([...trimmed].length > MAX_TITLE_LENGTH) {
    throw new ApiError(400, {
      message: { title: [`is too long (maximum is ${MAX_TITLE_LENGTH} characters)`] },
    });
  }
  return trimmed;
}

/** Every deploy key of the instance, oldest first: administrators only. */
export async function listAllDeployKeys(
  context: ServerContext,
  caller: Caller,
  window: PageWindow,
): Promise<Page<DeployKeyInstance>> {
  const user = requireUser(caller);
  requireScope(caller, 'read_api');
  if (!user.isAdmin) throw forbidden('403 Forbidden - Administrators only');
  const page = await pageOfKeys(context.db, window);
  return { items: page.items.map(presentInstanceKey), total: page.total };
}

export async function listProjectDeployKeys(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  window: PageWindow,
): Promise<Page<DeployKey>> {
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'read_api',
    AccessLevel.MAINTAINER,
  );
  const page = await pageOfProjectKeys(context.db, project.id, window);
  return { items: page.items.map(presentProjectKey), total: page.total };
}

export async function getDeployKey(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  keyId: number,
): Promise<DeployKey> {
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'read_api',
    AccessLevel.MAINTAINER,
  );
  return requireProjectKey(context.db, project.id, keyId);
}

/**
 * Adds a key to the project. A key already known to the instance (same fingerprint) is joined to the project
 * instead, but only when the caller can access it; a key already enabled here is refused. Either way 400
 * "has already been taken", so a caller learns nothing about keys of projects they cannot see.
 */
export async function addDeployKey(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  body: AddDeployKeyRequest,
): Promise<DeployKey> {
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'api',
    AccessLevel.MAINTAINER,
  );
  const title = checkTitle(body.title);
  const parsed = parseSshPublicKey(typeof body.key === 'string' ? body.key : '');
  if (!parsed.ok) throw new ApiError(400, { message: { key: ['is invalid', parsed.reason] } });
  const canPush = toBoolean(body.can_push) ?? false;
  const { db } = context;

  const existing = await findKeyByFingerprint(db, parsed.key.fingerprintSha256);
  if (existing && !(await canAccessKey(db, caller, existing.id))) throw keyTaken();
  // An existing key is never accessible through this project yet: its join row would make it taken below.
  try {
    const keyId = await db.transaction().execute(async (trx) => {
      const id =
        existing?.id ??
        (await insertKey(trx, {
          title,
          key: parsed.key.normalized,
          fingerprintSha256: parsed.key.fingerprintSha256,
        }));
      await insertKeyUse(trx, project.id, id, canPush);
      return id;
    });
    return requireProjectKey(db, project.id, keyId);
  } catch (error) {
    // The key is already enabled here, or a concurrent request added the same key first.
    if (isUniqueViolation(error)) throw keyTaken();
    throw error;
  }
}

export async function updateDeployKey(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  keyId: number,
  body: UpdateDeployKeyRequest | undefined,
): Promise<DeployKey> {
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'api',
    AccessLevel.MAINTAINER,
  );
  await requireProjectKey(context.db, project.id, keyId);
  const canPush = body?.can_push === undefined ? undefined : toBoolean(body.can_push);
  if (body?.can_push !== undefined && canPush === undefined)
    throw new ApiError(400, { error: 'can_push is invalid' });
  if (body?.title === undefined && canPush === undefined) {
    throw new ApiError(400, {
      error: 'title, can_push are missing, at least one parameter must be provided',
    });
  }
  const title = body?.title === undefined ? undefined : checkTitle(body.title);
  await context.db.transaction().execute(async (trx) => {
    // The title belongs to the key (shared by its projects); can_push to this project's use of it.
    if (title !== undefined) await setKeyTitle(trx, keyId, title);
    if (canPush !== undefined) await setKeyCanPush(trx, project.id, keyId, canPush);
  });
  return requireProjectKey(context.db, project.id, keyId);
}

/** Removes the key from the project, and from the instance when no other project uses it. */
export async function deleteDeployKey(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  keyId: number,
): Promise<void> {
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'api',
    AccessLevel.MAINTAINER,
  );
  await requireProjectKey(context.db, project.id, keyId);
  await removeKeyUse(context.db, project.id, keyId);
}

/**
 * Enables an existing key (of another project) for this project, read-only. A key the caller cannot access
 * is a 404, like an unknown one; a key already enabled here is returned as it is.
 */
export async function enableDeployKey(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  keyId: number,
): Promise<DeployKey> {
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'api',
    AccessLevel.MAINTAINER,
  );
  const { db } = context;
  const enabled = await findPresentedProjectKey(db, project.id, keyId);
  if (enabled) return enabled;
  if (!(await keyExists(db, keyId)) || !(await canAccessKey(db, caller, keyId))) throw deployKeyNotFound();
  try {
    await insertKeyUse(db, project.id, keyId, false);
  } catch (error) {
    // A concurrent enable of the same key won: the key is enabled either way. A concurrent delete of the
    // key's last use removed the key: then it is gone.
    if (error instanceof Error && /FOREIGN KEY constraint failed/.test(error.message))
      throw deployKeyNotFound();
    if (!isUniqueViolation(error)) throw error;
  }
  return requireProjectKey(db, project.id, keyId);
}
