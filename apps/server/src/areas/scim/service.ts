// SCIM provisioning of a group's users (document 2, section 4.15; GitLab's API::Scim::GroupScim and its
// provisioning and deprovisioning services): the group and its token are checked first, in GitLab's order
// (group, single sign-on, token); then the identities are read or changed, each write in one transaction.
import { randomBytes } from 'node:crypto';
import { hashToken } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import type { RequestBody } from '../../core/http/types.js';
import { isUniqueViolation, nowIso } from '../../core/store/database.js';
import type { Page } from '../../core/store/paging.js';
import { higherTier } from '../features/index.js';
import { ScimError, scimBadRequest, scimConflict, scimNotFound, scimUnauthorized } from './errors.js';
import { parseUserFilter, UnsupportedFilter } from './filter.js';
import { nameOf, type PatchOperation, readOperations } from './patchOperations.js';
import {
  deleteGroupMembership,
  deleteIdentity,
  emailTaken,
  externUidTaken,
  findGroupSso,
  findIdentity,
  groupMembership,
  type IdentityRow,
  insertProvisionedUser,
  pageOfIdentities,
  saveScimToken,
  updateExternUid,
  updateUser,
  usernameTaken,
} from './store.js';
import { usernameFrom } from './usernames.js';

/** A group whose single sign-on is on and whose token the caller presented. */
export interface ScimGroup {
  id: number;
  fullPath: string;
  defaultMembershipRole: number;
}

/** GitLab's page sizes (Kaminari's default and maximum), which SCIM `count` is held to. */
const DEFAULT_COUNT = 20;
const MAX_COUNT = 100;

const GUEST = 10;

/**
 * The group at `groupPath`, if it exists (404), the instance has the higher tier (403), the group has single
 * sign-on on (404) and `token` is its SCIM token (401), in the order GitLab checks them.
 */
export async function authorizeScimGroup(
  context: ServerContext,
  groupPath: string,
  token: string | undefined,
): Promise<ScimGroup> {
  const group = await findGroupSso(context.db, groupPath);
  if (!group) throw scimNotFound(`Group ${groupPath} not found`);
  // Group SCIM is a licensed (higher-tier) feature in GitLab.
  if (!higherTier(context)) throw new ScimError(403, 'Group SCIM not enabled.');
  if (group.enabled !== 1) throw scimNotFound(`Group ${groupPath} does not have SAML SSO configured`);
  if (!token || group.token_sha256 === null || hashToken(token) !== group.token_sha256)
    throw scimUnauthorized();
  return {
    id: group.group_id,
    fullPath: group.full_path,
    defaultMembershipRole: group.default_membership_role ?? GUEST,
  };
}

export interface ListRequest {
  filter?: string;
  startIndex?: number;
  count?: number;
}

export interface IdentityPage extends Page<IdentityRow> {
  itemsPerPage: number;
  startIndex: number;
}

/** One page of the group's identities: `startIndex` below 1 is 1; `count` below 1 is 20, above 100 is 100. */
export async function listScimIdentities(
  context: ServerContext,
  group: ScimGroup,
  request: ListRequest,
): Promise<IdentityPage> {
  let filter: ReturnType<typeof parseUserFilter> | undefined;
  try {
    filter = request.filter === undefined ? undefined : parseUserFilter(request.filter);
  } catch (error) {
    if (error instanceof UnsupportedFilter) throw scimBadRequest('Unsupported Filter', 'invalidFilter');
    throw error;
  }
  const startIndex = Math.max(request.startIndex ?? 1, 1);
  const itemsPerPage =
    request.count === undefined || request.count < 1 ? DEFAULT_COUNT : Math.min(request.count, MAX_COUNT);
  const page = await pageOfIdentities(context.db, group.id, filter, {
    offset: startIndex - 1,
    limit: itemsPerPage,
  });
  return { ...page, itemsPerPage, startIndex };
}

export async function getScimIdentity(
  context: ServerContext,
  group: ScimGroup,
  externUid: string,
): Promise<IdentityRow> {
  const identity = await findIdentity(context.db, group.id, externUid);
  if (!identity) throw scimNotFound(`Resource ${externUid} not found`);
  return identity;
}

export type CreateScimUserBody = RequestBody<'createScimUser'>;

/**
 * Provisions a user: a new user, its SSO identity with `externalId` and its membership of the group at the
 * group's default level. 409 when the external UID, the username or the e-mail is taken.
 */
export async function provisionScimUser(
  context: ServerContext,
  group: ScimGroup,
  body: CreateScimUserBody,
): Promise<IdentityRow> {
  const externUid = body.externalId;
  const saving = `Error saving user with externalId ${JSON.stringify(externUid)}`;
  // GitLab's params parser: the first address that is the work one or the primary one.
  const email = body.emails.find((address) => address.type === 'work' || address.primary === true)?.value;
  const name = nameOf(body.name);
  const username = usernameFrom(body.userName);
  const missing = [
    ...(externUid.trim() === '' ? ['externalId'] : []),
    ...(email === undefined ? ['email'] : []),
    ...(username === '' ? ['userName'] : []),
    ...(name === undefined ? ['name'] : []),
  ];
  if (missing.length > 0 || email === undefined || name === undefined)
    throw scimBadRequest(`${saving}: Missing params: ${missing.join(', ')}`, 'invalidValue');

  try {
    return await context.db.transaction().execute(async (trx) => {
      if (await externUidTaken(trx, group.id, externUid))
        throw scimConflict(`${saving}: Extern uid has already been taken`);
      if (await usernameTaken(trx, username))
        throw scimConflict(`${saving}: Username has already been taken`);
      if (await emailTaken(trx, email)) throw scimConflict(`${saving}: Email has already been taken`);
      return insertProvisionedUser(trx, {
        groupId: group.id,
        externUid,
        username,
        name,
        email,
        accessLevel: group.defaultMembershipRole,
        now: nowIso(),
      });
    });
  } catch (error) {
    // Another process provisioned the same user between the checks and the insert.
    if (isUniqueViolation(error)) throw scimConflict(`${saving}: has already been taken`);
    throw error;
  }
}

/**
 * Applies a PatchOp to the user with external UID `externUid`: `active: false` removes the SSO identity
 * (the membership stays); otherwise the external UID, name, e-mail and username change together or not at
 * all (409 when one of them is taken).
 */
export async function updateScimIdentity(
  context: ServerContext,
  group: ScimGroup,
  externUid: string,
  operations: readonly PatchOperation[],
): Promise<void> {
  const changes = readOperations(operations);
  try {
    await context.db.transaction().execute(async (trx) => {
      const identity = await findIdentity(trx, group.id, externUid);
      if (!identity) throw scimNotFound(`Resource ${externUid} not found`);
      const updating = `Error updating ${identity.name}`;
      if (changes.active === false) {
        await deleteIdentity(trx, identity.id);
        return;
      }
      const now = nowIso();
      if (changes.externUid !== undefined && changes.externUid !== identity.extern_uid) {
        if (await externUidTaken(trx, group.id, changes.externUid, identity.id))
          throw scimConflict(`${updating}: Extern uid has already been taken`);
        await updateExternUid(trx, identity.id, changes.externUid, now);
      }
      const user: { name?: string; email?: string; username?: string } = {};
      if (changes.name !== undefined && changes.name !== identity.name) user.name = changes.name;
      if (changes.username !== undefined && changes.username !== identity.username) {
        if (await usernameTaken(trx, changes.username, identity.user_id))
          throw scimConflict(`${updating}: Username has already been taken`);
        user.username = changes.username;
      }
      if (changes.email !== undefined && changes.email !== identity.email) {
        if (await emailTaken(trx, changes.email, identity.user_id))
          throw scimConflict(`${updating}: Email has already been taken`);
        user.email = changes.email;
      }
      if (Object.keys(user).length > 0) await updateUser(trx, identity.user_id, user, now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw scimConflict('Error updating user: has already been taken');
    throw error;
  }
}

/**
 * Deprovisions the user: removes the SSO identity and the group membership (400 when the user is the
 * group's last owner, as GitLab's deprovisioning service refuses).
 */
export async function deprovisionScimIdentity(
  context: ServerContext,
  group: ScimGroup,
  externUid: string,
): Promise<void> {
  await context.db.transaction().execute(async (trx) => {
    const identity = await findIdentity(trx, group.id, externUid);
    if (!identity) throw scimNotFound(`Resource ${externUid} not found`);
    const { accessLevel, owners } = await groupMembership(trx, group.id, identity.user_id);
    if (accessLevel !== undefined && accessLevel >= 50 && owners <= 1)
      throw new ScimError(
        400,
        `Could not remove ${identity.username} from ${group.fullPath}. Cannot remove last group owner.`,
      );
    await deleteIdentity(trx, identity.id);
    await deleteGroupMembership(trx, group.id, identity.user_id);
  });
}

/** A new SCIM token for the group at `groupPath` (replacing any earlier one), turning its single sign-on on. */
export async function issueScimToken(
  context: Pick<ServerContext, 'db'>,
  groupPath: string,
): Promise<{ token: string; fullPath: string }> {
  const group = await findGroupSso(context.db, groupPath);
  if (!group) throw scimNotFound(`Group ${groupPath} not found`);
  const token = `collab-scim-${randomBytes(24).toString('base64url')}`;
  await context.db
    .transaction()
    .execute((trx) => saveScimToken(trx, group.group_id, hashToken(token), nowIso()));
  return { token, fullPath: group.full_path };
}
