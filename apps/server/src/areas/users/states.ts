// Administrators block and unblock accounts (GitLab v4's POST /users/:id/block and /unblock,
// Users::BlockService and UnblockService; the seeds do not show them). A blocked user's tokens are refused
// with 403 (core/access/caller.ts), and blocked users are listed only to administrators (service.ts).
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, forbidden, notFound } from '../../core/http/errors.js';
import { nowIso } from '../../core/store/database.js';
import { dropPipelinesOfBlockedUser } from '../pipelines/index.js';
import { findUser, updateUserRow } from './store.js';

/** GitLab's `authenticated_as_admin!`; returns the administrator's ID. */
function requireAdminId(caller: Caller): number {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  if (!user.isAdmin) throw forbidden();
  return user.id;
}

/**
 * Blocks a user: true when blocked now, null when the user was blocked already (GitLab's endpoint `break`s
 * then, which Grape answers with a null body and 201). LDAP-blocked users, the caller itself and internal
 * users (the ghost user) are refused with 403, in GitLab's words. The user's active pipelines are dropped.
 */
export async function blockUser(context: ServerContext, caller: Caller, id: number): Promise<true | null> {
  const adminId = requireAdminId(caller);
  const blocked = await context.db.transaction().execute(async (trx) => {
    const user = await findUser(trx, id);
    if (!user) throw notFound('User');
    if (user.state === 'ldap_blocked')
      throw forbidden('403 Forbidden - LDAP blocked users cannot be modified by the API');
    if (user.id === adminId)
      throw forbidden('403 Forbidden - The API initiating user cannot be blocked by the API');
    if (user.state === 'blocked') return null;
    if (user.user_type === 'ghost')
      throw new ApiError(403, { message: 'An internal user cannot be blocked' });
    await updateUserRow(trx, user.id, { state: 'blocked', updated_at: nowIso() });
    return true as const;
  });
  // After the commit, as GitLab's state machine does (Ci::DropPipelinesAndDisableSchedulesForUserService).
  if (blocked) await dropPipelinesOfBlockedUser(context, id);
  return blocked;
}

/**
 * Unblocks a blocked user: true when unblocked now, false when the user was not blocked (GitLab's state
 * machine has no `activate` from `active`, and the endpoint answers the service's success). LDAP-blocked
 * and deactivated users are refused with 403.
 */
export async function unblockUser(context: ServerContext, caller: Caller, id: number): Promise<boolean> {
  requireAdminId(caller);
  return context.db.transaction().execute(async (trx) => {
    const user = await findUser(trx, id);
    if (!user) throw notFound('User');
    if (user.state === 'ldap_blocked')
      throw forbidden('403 Forbidden - LDAP blocked users cannot be unblocked by the API');
    if (user.state === 'deactivated')
      throw forbidden('403 Forbidden - Deactivated users cannot be unblocked by the API');
    if (user.state !== 'blocked') return false;
    await updateUserRow(trx, user.id, { state: 'active', updated_at: nowIso() });
    return true;
  });
}
