// The SCIM area's queries: groups' single sign-on settings and SCIM tokens, provisioned identities (table
// scim_identities) with their users, and the users and memberships provisioning makes.
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { Database } from '../../core/store/tables.js';
import type { UserFilter } from './filter.js';

type Reader = Db | Transaction<Database>;

/** A group with its single sign-on setting and SCIM token hash (nulls where it has none). */
export interface GroupSso {
  group_id: number;
  full_path: string;
  enabled: number | null;
  default_membership_role: number | null;
  token_sha256: string | null;
}

/** The group at `fullPath` (a group, not a user's namespace) with its single sign-on and token. */
export function findGroupSso(db: Reader, fullPath: string): Promise<GroupSso | undefined> {
  return db
    .selectFrom('groups as g')
    .leftJoin('group_saml_providers as s', 's.group_id', 'g.id')
    .leftJoin('group_scim_tokens as t', 't.group_id', 'g.id')
    .select(['g.id as group_id', 'g.full_path', 's.enabled', 's.default_membership_role', 't.token_sha256'])
    .where('g.full_path', '=', fullPath)
    .where('g.kind', '=', 'group')
    .executeTakeFirst();
}

/** A provisioned identity with its user's fields, as the SCIM user is made of. */
export interface IdentityRow {
  id: number;
  user_id: number;
  extern_uid: string;
  username: string;
  name: string;
  email: string;
}

function identitiesOf(db: Reader, groupId: number) {
  return db
    .selectFrom('scim_identities as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .where('i.group_id', '=', groupId);
}

function selectIdentity(query: ReturnType<typeof identitiesOf>) {
  return query.select(['i.id', 'i.user_id', 'i.extern_uid', 'u.username', 'u.name', 'u.email']);
}

/** One page of the group's identities in provisioning order, narrowed by the filter if there is one. */
export function pageOfIdentities(
  db: Db,
  groupId: number,
  filter: UserFilter | undefined,
  window: PageWindow,
): Promise<Page<IdentityRow>> {
  let filtered = identitiesOf(db, groupId);
  if (filter?.attribute === 'extern_uid')
    filtered = filtered.where(sql<string>`lower(i.extern_uid)`, '=', filter.value.toLowerCase());
  if (filter?.attribute === 'username')
    filtered = filtered.where(sql<string>`lower(u.username)`, '=', filter.value.toLowerCase());
  return readPageOf(db, filtered, (query) => selectIdentity(query).orderBy('i.id'), window);
}

/** The group's identity with this external UID (compared without case, as GitLab's `with_extern_uid`). */
export function findIdentity(
  db: Reader,
  groupId: number,
  externUid: string,
): Promise<IdentityRow | undefined> {
  return selectIdentity(identitiesOf(db, groupId))
    .where(sql<string>`lower(i.extern_uid)`, '=', externUid.toLowerCase())
    .executeTakeFirst();
}

/** Whether another identity of the group has this external UID. */
export async function externUidTaken(
  db: Reader,
  groupId: number,
  externUid: string,
  exceptIdentityId?: number,
): Promise<boolean> {
  let query = db
    .selectFrom('scim_identities')
    .select('id')
    .where('group_id', '=', groupId)
    .where(sql<string>`lower(extern_uid)`, '=', externUid.toLowerCase());
  if (exceptIdentityId !== undefined) query = query.where('id', '!=', exceptIdentityId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Whether a username is taken by another user, or by a top-level group (usernames and top-level group paths
 * share one namespace in GitLab), compared without case.
 */
export async function usernameTaken(db: Reader, username: string, exceptUserId?: number): Promise<boolean> {
  const lower = username.toLowerCase();
  let users = db.selectFrom('users').select('id').where(sql<string>`lower(username)`, '=', lower);
  if (exceptUserId !== undefined) users = users.where('id', '!=', exceptUserId);
  if (await users.limit(1).executeTakeFirst()) return true;
  const group = await db
    .selectFrom('groups')
    .select('id')
    .where('parent_id', 'is', null)
    .where('kind', '=', 'group')
    .where(sql<string>`lower(path)`, '=', lower)
    .limit(1)
    .executeTakeFirst();
  return group !== undefined;
}

/** Whether another user has this e-mail, compared without case. */
export async function emailTaken(db: Reader, email: string, exceptUserId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where(sql<string>`lower(email)`, '=', email.toLowerCase());
  if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

export interface NewProvisionedUser {
  groupId: number;
  externUid: string;
  username: string;
  name: string;
  email: string;
  accessLevel: number;
  now: string;
}

/** Makes the user, its SSO identity in the group and its membership of the group; returns the identity. */
export async function insertProvisionedUser(
  trx: Transaction<Database>,
  user: NewProvisionedUser,
): Promise<IdentityRow> {
  const { id: userId } = await trx
    .insertInto('users')
    .values({
      username: user.username,
      name: user.name,
      email: user.email,
      state: 'active',
      is_admin: 0,
      avatar_url: null,
      created_at: user.now,
      updated_at: user.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id } = await trx
    .insertInto('scim_identities')
    .values({
      group_id: user.groupId,
      user_id: userId,
      extern_uid: user.externUid,
      created_at: user.now,
      updated_at: user.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('members')
    .values({
      source_type: 'Group',
      source_id: user.groupId,
      user_id: userId,
      access_level: user.accessLevel,
      created_at: user.now,
    })
    .execute();
  return {
    id,
    user_id: userId,
    extern_uid: user.externUid,
    username: user.username,
    name: user.name,
    email: user.email,
  };
}

export async function updateExternUid(
  trx: Transaction<Database>,
  identityId: number,
  externUid: string,
  now: string,
): Promise<void> {
  await trx
    .updateTable('scim_identities')
    .set({ extern_uid: externUid, updated_at: now })
    .where('id', '=', identityId)
    .execute();
}

export async function updateUser(
  trx: Transaction<Database>,
  userId: number,
  changes: { name?: string; email?: string; username?: string },
  now: string,
): Promise<void> {
  await trx
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function deleteIdentity(trx: Transaction<Database>, identityId: number): Promise<void> {
  await trx.deleteFrom('scim_identities').where('id', '=', identityId).execute();
}

/** The user's access level in the group, and how many owners the group has. */
export async function groupMembership(
  trx: Transaction<Database>,
  groupId: number,
  userId: number,
): Promise<{ accessLevel: number | undefined; owners: number }> {
  const member = await trx
    .selectFrom('members')
    .select('access_level')
    .where('source_type', '=', 'Group')
    .where('source_id', '=', groupId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const { owners } = await trx
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('owners'))
    .where('source_type', '=', 'Group')
    .where('source_id', '=', groupId)
    .where('access_level', '>=', 50)
    .executeTakeFirstOrThrow();
  return { accessLevel: member?.access_level, owners: Number(owners) };
}

export async function deleteGroupMembership(
  trx: Transaction<Database>,
  groupId: number,
  userId: number,
): Promise<void> {
  await trx
    .deleteFrom('members')
    .where('source_type', '=', 'Group')
    .where('source_id', '=', groupId)
    .where('user_id', '=', userId)
    .execute();
}

/** Sets the group's SCIM token (replacing any earlier one) and turns its single sign-on on if it has none. */
export async function saveScimToken(
  trx: Transaction<Database>,
  groupId: number,
  tokenSha256: string,
  now: string,
): Promise<void> {
  await trx.deleteFrom('group_scim_tokens').where('group_id', '=', groupId).execute();
  await trx
    .insertInto('group_scim_tokens')
    .values({ group_id: groupId, token_sha256: tokenSha256, created_at: now })
    .execute();
  const sso = await trx
    .selectFrom('group_saml_providers')
    .select('enabled')
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  if (!sso)
    await trx
      .insertInto('group_saml_providers')
      .values({ group_id: groupId, enabled: 1, created_at: now })
      .execute();
  else if (sso.enabled !== 1)
    await trx
      .updateTable('group_saml_providers')
      .set({ enabled: 1 })
      .where('group_id', '=', groupId)
      .execute();
}

/** Sets a group's single sign-on (fixtures). */
export async function insertGroupSso(
  db: Db,
  groupId: number,
  sso: { enabled: boolean; defaultMembershipRole: number; scimTokenSha256: string | undefined },
  now: string,
): Promise<void> {
  await db
    .insertInto('group_saml_providers')
    .values({
      group_id: groupId,
      enabled: sso.enabled ? 1 : 0,
      default_membership_role: sso.defaultMembershipRole,
      created_at: now,
    })
    .execute();
  if (sso.scimTokenSha256 !== undefined)
    await db
      .insertInto('group_scim_tokens')
      .values({ group_id: groupId, token_sha256: sso.scimTokenSha256, created_at: now })
      .execute();
}
