// Administrators' writes of accounts (GitLab v4's POST, PUT and DELETE /users, app/services/users/):
// - Only administrators (403 for others, 401 without a valid token); a token without the `api` scope 403.
// - The e-mail address and the username are free among the other users, ignoring case, and the username is
//   no top-level namespace's path: 409 `Email has already been taken` / `Username has already been taken`,
//   checked in the transaction that writes (two requests for one name cannot both succeed). The formats and
//   lengths are the spec's (the validator answers 400 naming the field); `public_email` must be the user's
//   own address (GitLab's "is not an email you own").
// - A deletion removes the user's personal projects and personal snippets and moves the user's
//   contributions (project snippets among them) to the ghost user (made by the first deletion); with
//   `hard_delete` it deletes instead the user's issues, merge requests, epics, snippets, notes and award
//   emoji. A user who owns a group alone is not deleted (409) unless `hard_delete`, which removes those
//   groups too.

import type { Transaction, Updateable } from 'kysely';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, conflict, forbidden, notFound } from '../../core/http/errors.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import { isUniqueViolation, nowIso } from '../../core/store/database.js';
import type { Database, UsersTable } from '../../core/store/tables.js';
import { handOverEpics } from '../epics/index.js';
import { deletePersonalNamespace, removeGroupTree, renamePersonalNamespace } from '../groups/index.js';
import { handOverIssues } from '../issues/index.js';
import { handOverMergeRequests } from '../mergeRequests/index.js';
import { handOverNotes } from '../notes/index.js';
import { handOverPipelines } from '../pipelines/index.js';
import { handOverCreatedProjects, purgeProject } from '../projects/index.js';
import { handOverSnippets } from '../snippets/index.js';
import { handOverTodos } from '../todos/index.js';
import { presentUserWithAdmin } from './present.js';
import {
  deleteUserRow,
  emailTaken,
  findGhostUser,
  findUser,
  insertUser,
  personalProjectCounts,
  personalProjectIds,
  soleOwnedGroupIds,
  type UserRow,
  updateUserRow,
  usernameTaken,
} from './store.js';

export type CreateUserBody = RequestBody<'createUser'>;
export type UpdateUserBody = RequestBody<'updateUser'>;
type AdminUser = ResponseBody<'createUser', 201>;

const EMAIL_TAKEN = 'Email has already been taken';
const USERNAME_TAKEN = 'Username has already been taken';

/** GitLab's `authenticated_as_admin!`: 401 anonymous, 403 for others; writes need the `api` scope. */
function requireAdmin(caller: Caller): void {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  if (!user.isAdmin) throw forbidden();
}

const flag = (value: boolean | undefined): number | undefined =>
  value === undefined ? undefined : value ? 1 : 0;

/** The optional account fields of a request as `users` columns; what it leaves out stays undefined. */
function attributeColumns(body: CreateUserBody | UpdateUserBody): Updateable<UsersTable> {
  return {
    is_admin: flag(body.admin),
    can_create_group: flag(body.can_create_group),
    projects_limit: body.projects_limit,
    external: flag(body.external),
    private_profile: flag(body.private_profile),
    bio: body.bio,
    location: body.location,
    public_email: body.public_email,
    skype: body.skype,
    linkedin: body.linkedin,
    twitter: body.twitter,
    discord: body.discord,
    website_url: body.website_url,
    organization: body.organization,
    pronouns: body.pronouns,
  };
}

/** Drops the columns a request did not give, so that an update changes only those. */
function given<T extends object>(columns: T): Partial<T> {
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** GitLab's check of the public address: one of the user's own (here the primary one), or none. */
function checkPublicEmail(publicEmail: string | null | undefined, email: string): void {
  if (!publicEmail) return;
  if (publicEmail.toLowerCase() !== email.toLowerCase())
    throw new ApiError(400, { message: { public_email: ['is not an email you own'] } });
}

async function checkFree(
  trx: Transaction<Database>,
  email: string | undefined,
  username: string | undefined,
  exceptUserId?: number,
): Promise<void> {
  if (email !== undefined && (await emailTaken(trx, email, exceptUserId))) throw conflict(EMAIL_TAKEN);
  if (username !== undefined && (await usernameTaken(trx, username, exceptUserId)))
    throw conflict(USERNAME_TAKEN);
}

async function presentAdminView(context: ServerContext, row: UserRow, origin: string): Promise<AdminUser> {
  const counts = await personalProjectCounts(context.db, [row]);
  return presentUserWithAdmin(row, origin, counts.get(row.id) ?? 0);
}

/** A write that lost a race for a unique username (the index on its lower case) is GitLab's 409. */
async function uniqueUsername<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(USERNAME_TAKEN);
    throw error;
  }
}

export async function createUser(
  context: ServerContext,
  caller: Caller,
  body: CreateUserBody,
  origin: string,
): Promise<AdminUser> {
  requireAdmin(caller);
  checkPublicEmail(body.public_email, body.email);
  const now = nowIso();
  const id = await uniqueUsername(() =>
    context.db.transaction().execute(async (trx) => {
      await checkFree(trx, body.email, body.username);
      return insertUser(trx, {
        ...given(attributeColumns(body)),
        username: body.username,
        name: body.name,
        email: body.email,
        state: 'active',
        is_admin: body.admin ? 1 : 0,
        avatar_url: null,
        created_at: now,
        updated_at: now,
        confirmed_at: body.skip_confirmation ? now : null,
      });
    }),
  );
  const row = await findUser(context.db, id);
  if (!row) throw notFound('User');
  return presentAdminView(context, row, origin);
}

export async function updateUser(
  context: ServerContext,
  caller: Caller,
  id: number,
  body: UpdateUserBody,
  origin: string,
): Promise<AdminUser> {
  requireAdmin(caller);
  await uniqueUsername(() =>
    context.db.transaction().execute(async (trx) => {
      const row = await findUser(trx, id);
      if (!row) throw notFound('User');
      await checkFree(trx, body.email, body.username, row.id);
      const email = body.email ?? row.email;
      checkPublicEmail(body.public_email ?? row.public_email, email);
      const changes = given({
        ...attributeColumns(body),
        email: body.email,
        username: body.username,
        name: body.name,
      });
      if (Object.keys(changes).length === 0) return;
      await updateUserRow(trx, row.id, { ...changes, updated_at: nowIso() });
      if (changes.username !== undefined || changes.name !== undefined)
        await renamePersonalNamespace(
          trx,
          row.username,
          changes.username ?? row.username,
          changes.name ?? row.name,
        );
    }),
  );
  const row = await findUser(context.db, id);
  if (!row) throw notFound('User');
  return presentAdminView(context, row, origin);
}

/** The ghost user's account, as GitLab makes it: its bio says what it is for. */
const GHOST = {
  name: 'Ghost User',
  bio: 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.',
};

/** The ghost user, made on the first deletion under the first free name of `ghost`, `ghost1`, `ghost2` … */
async function ghostUser(trx: Transaction<Database>): Promise<number> {
  const existing = await findGhostUser(trx);
  if (existing) return existing.id;
  let username = 'ghost';
  for (let n = 1; await usernameTaken(trx, username); n++) username = `ghost${n}`;
  const now = nowIso();
  return insertUser(trx, {
    username,
    name: GHOST.name,
    email: `${username}@noreply.invalid`,
    state: 'active',
    is_admin: 0,
    avatar_url: null,
    created_at: now,
    updated_at: now,
    confirmed_at: now,
    bio: GHOST.bio,
    can_create_group: 0,
    projects_limit: 0,
    user_type: 'ghost',
  });
}

/**
 * Deletes a user as GitLab's DELETE /users/:id and Users::DestroyService: a user who is the only owner of a
 * group is kept (409) unless `hard_delete`, which removes those groups with everything in them; the user's
 * personal projects and personal snippets go; the contributions move to the ghost user, or with
 * `hard_delete` the issues, merge requests, epics (GitLab's foreign key on their author cascades),
 * snippets, notes and award emoji go instead. GitLab does this in the background; here the projects and groups go first (each in its
 * own transaction, as the projects and groups areas remove them), then the account in one transaction.
 */
export async function deleteUser(
  context: ServerContext,
  caller: Caller,
  id: number,
  hardDelete: boolean,
): Promise<void> {
  requireAdmin(caller);
  const { db } = context;
  const user = await findUser(db, id);
  if (!user) throw notFound('User');
  if (user.user_type === 'ghost') throw forbidden('403 Forbidden - The ghost user cannot be removed');
  const soleOwned = await soleOwnedGroupIds(db, user.id);
  if (soleOwned.length > 0 && !hardDelete)
    throw conflict('User cannot be removed while is the sole-owner of a group');
  for (const projectId of await personalProjectIds(db, user)) await purgeProject(context, projectId);
  for (const groupId of soleOwned) await removeGroupTree(context, groupId);
  await db.transaction().execute(async (trx) => {
    const row = await findUser(trx, id);
    if (!row) throw notFound('User');
    const ghostId = await ghostUser(trx);
    // Each area hands over what of the user's it keeps (GitLab's MigrateRecordsToGhostUserService and the
    // foreign keys that nullify or cascade): to the ghost user, cleared, or with `hardDelete` deleted.
    for (const handOver of [
      handOverIssues,
      handOverMergeRequests,
      handOverEpics,
      handOverNotes,
      handOverTodos,
      handOverPipelines,
      handOverSnippets,
    ])
      await handOver(trx, row.id, ghostId, hardDelete);
    await handOverCreatedProjects(trx, row.id, ghostId);
    await deleteUserRow(trx, row.id);
    await deletePersonalNamespace(trx, row.username);
  });
}
