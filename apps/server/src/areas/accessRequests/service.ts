// Access requests (document 2, section 4.10), for groups and projects alike: a signed-in user who can see
// a group or project and has no access to it asks to join; those who manage its members list the requests,
// approve one (the user becomes a member, by default a developer) or deny it; the requester may withdraw.
// Who manages members, as in GitLab v4: a project's maintainers and owners, a group's owners (and
// administrators); only an owner makes another owner of a project.

import { AccessLevel, resolveGroupForSignedIn, resolveProjectForSignedIn } from '../../core/access/access.js';
import { type Caller, requireUser, type ScopeNeed } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, forbidden, invalidParameter, notFound } from '../../core/http/errors.js';
import type { RequestBody } from '../../core/http/types.js';
import { isUniqueViolation, nowIso, todayIso } from '../../core/store/database.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { addMemberIn } from '../members/index.js';
import { type AccessRequest, type AccessRequestMember, presentMember, presentRequest } from './present.js';
import { deleteRequest, findRequest, insertRequest, pageOfRequests, type Source } from './store.js';

export type SourceType = Source['type'];
type ApproveRequest = RequestBody<'approveProjectAccessRequest'>;
type GrantableLevel = AccessRequestMember['access_level'];

const GRANTABLE_LEVELS: readonly number[] = [
  AccessLevel.GUEST,
  AccessLevel.REPORTER,
  AccessLevel.DEVELOPER,
  AccessLevel.MAINTAINER,
  AccessLevel.OWNER,
];

/** The level that manages a source's members (and so its access requests). */
function managingLevel(type: SourceType): number {
  return type === 'Project' ? AccessLevel.MAINTAINER : AccessLevel.OWNER;
}

/** GitLab's validation error for a second membership or request of one user in one source. */
const alreadyExists = (): ApiError =>
  new ApiError(400, { message: { user_id: ['already exists in source'] } });
const requestNotFound = (): ApiError => notFound('Access Request');

interface ResolvedSource {
  source: Source;
  /** The caller's level in it (ADMIN for administrators). */
  accessLevel: number;
  /** Whether users may ask to join it (its `request_access_enabled` setting). */
  requestsEnabled: boolean;
}

/**
 * The group or project for an operation of a signed-in caller: 401 without a valid token, 403 for a token
 * without the scope, 404 when the caller may not see it, 403 below `minLevel`.
 */
async function resolveSource(
  context: ServerContext,
  caller: Caller,
  type: SourceType,
  idOrPath: string,
  scope: ScopeNeed,
  minLevel: number,
): Promise<ResolvedSource> {
  if (type === 'Project') {
    const access = await resolveProjectForSignedIn(context.db, caller, idOrPath, scope, minLevel);
    return {
      source: { type, id: access.project.id },
      accessLevel: access.accessLevel,
      requestsEnabled: access.project.request_access_enabled === 1,
    };
  }
  const access = await resolveGroupForSignedIn(context.db, caller, idOrPath, scope, minLevel);
  return {
    source: { type, id: access.group.id },
    accessLevel: access.accessLevel,
    requestsEnabled: access.group.request_access_enabled === 1,
  };
}

/** `access_level` of an approval: a number or, from forms and query strings, a numeric string. */
function grantedLevel(body: ApproveRequest | undefined): GrantableLevel {
  const value: unknown = body?.access_level;
  if (value === undefined || value === null || value === '') return AccessLevel.DEVELOPER;
  const level = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof level !== 'number' || !GRANTABLE_LEVELS.includes(level)) throw invalidParameter('access_level');
  return level as GrantableLevel;
}

export async function listAccessRequests(
  context: ServerContext,
  caller: Caller,
  type: SourceType,
  idOrPath: string,
  window: PageWindow,
): Promise<Page<AccessRequest>> {
  const { source } = await resolveSource(context, caller, type, idOrPath, 'read_api', managingLevel(type));
  const page = await pageOfRequests(context.db, source, window);
  return { items: page.items.map(presentRequest), total: page.total };
}

/**
 * The caller asks to join. Only what the caller can see may be asked for (404 otherwise); a caller who
 * already has access, directly, through a parent group, a share or as an administrator, or who asked
 * already, is refused with 400; a group or project whose `request_access_enabled` is off refuses with 403.
 */
export async function requestAccess(
  context: ServerContext,
  caller: Caller,
  type: SourceType,
  idOrPath: string,
): Promise<AccessRequest> {
  const { source, accessLevel, requestsEnabled } = await resolveSource(
    context,
    caller,
    type,
    idOrPath,
    'api',
    0,
  );
  const user = requireUser(caller);
  if (accessLevel >= AccessLevel.GUEST) throw alreadyExists();
  // GitLab prevents `request_access` where requests are off (Gitlab::Access::AccessDeniedError: 403).
  if (!requestsEnabled) throw forbidden();
  const row = await context.db.transaction().execute(async (trx) => {
    try {
      await insertRequest(trx, source, user.id, nowIso());
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyExists();
      throw error;
    }
    return findRequest(trx, source, user.id);
  });
  if (!row) throw requestNotFound();
  return presentRequest(row);
}

/**
 * Makes the requester a member with `access_level` (default 30) and removes the request, in one
 * transaction. A project owner is made by an owner only, as in GitLab.
 */
export async function approveAccessRequest(
  context: ServerContext,
  caller: Caller,
  type: SourceType,
  idOrPath: string,
  userId: number,
  body: ApproveRequest | undefined,
): Promise<AccessRequestMember> {
  const { source, accessLevel } = await resolveSource(
    context,
    caller,
    type,
    idOrPath,
    'api',
    managingLevel(type),
  );
  const approver = requireUser(caller);
  const level = grantedLevel(body);
  if (level === AccessLevel.OWNER && accessLevel < AccessLevel.OWNER) throw forbidden();
  const row = await context.db.transaction().execute(async (trx) => {
    const request = await findRequest(trx, source, userId);
    if (!request) return undefined;
    // The membership answers the request, which goes with it (the members area's rule); a member already
    // (made by other means since the request) is refused, and the request stays.
    const added = await addMemberIn(trx, source, {
      userId,
      accessLevel: level,
      expiresAt: null,
      createdBy: approver.id,
      now: nowIso(),
      today: todayIso(),
    });
    if (!added) throw alreadyExists();
    return request;
  });
  if (!row) throw requestNotFound();
  return presentMember(row, level);
}

/** Denies a request (those who manage members) or withdraws it (the requester). */
export async function denyAccessRequest(
  context: ServerContext,
  caller: Caller,
  type: SourceType,
  idOrPath: string,
  userId: number,
): Promise<void> {
  const { source, accessLevel } = await resolveSource(context, caller, type, idOrPath, 'api', 0);
  const user = requireUser(caller);
  if (user.id !== userId && accessLevel < managingLevel(type)) throw forbidden();
  if (!(await deleteRequest(context.db, source, userId))) throw requestNotFound();
}
