// Personal access tokens, as GitLab's API serves them:
// - POST /users/:user_id/personal_access_tokens: administrators only (403 others; `api` scope), for an
//   existing user (404); the token string is answered once, and only its SHA-256 is kept. Without
//   `expires_at` a token lives 365 days (GitLab's default lifetime).
// - POST /user/personal_access_tokens: any signed-in caller (`api` scope) makes a token of its own, with
//   only the `k8s_proxy` scope (GitLab 16.5+, the spec refuses others), expiring tomorrow by default.
// - GET /personal_access_tokens: needs a token (401); administrators list everybody's (or `user_id`'s, 404 for
//   an unknown user), others their own (401 for another's `user_id`, GitLab's `restrict_non_admins!`).
// - GET /personal_access_tokens/:id: the token's user or an administrator; others 401, and only
//   administrators learn of an unknown ID (404).
// - DELETE /personal_access_tokens/:id: 404 for an unknown ID; the token's user or an administrator revoke it
//   (204), others get 400 (`RevokeService` not permitted).
// - /personal_access_tokens/self: the request's own token, whatever its scopes.
import { randomBytes } from 'node:crypto';
import { type Caller, hashToken, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, forbidden, notFound, unauthorized } from '../../core/http/errors.js';
import type { QueryParams, RequestBody, ResponseBody, Schemas } from '../../core/http/types.js';
import { nowIso, todayIso } from '../../core/store/database.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { presentToken, presentTokenWithLastUsedIps } from './present.js';
import { findToken, insertToken, pageOfTokens, revokeToken, type TokenFilter, userExists } from './store.js';

export type CreateTokenBody = RequestBody<'createUserPersonalAccessToken'>;
export type CreateOwnTokenBody = RequestBody<'createCurrentUserPersonalAccessToken'>;
export type ListTokensQuery = QueryParams<'listPersonalAccessTokens'>;
type TokenWithToken = ResponseBody<'createUserPersonalAccessToken', 201>;
type TokenDetails = Schemas['PersonalAccessTokenWithLastUsedIps'];
type TokenScope = Schemas['TokenScope'];

/** GitLab's default lifetime of a token made without an expiry date. */
const DEFAULT_LIFETIME_DAYS = 365;
/** Generated tokens: a prefix that tells them apart, and 32 random bytes. */
const TOKEN_PREFIX = 'collabpat-';

/** GitLab's answer when a revocation is not permitted (`bad_request!(nil)`). */
const notPermitted = (): ApiError => new ApiError(400, { message: '400 Bad request' });

/** The scopes as a list without repeats: a JSON array, repeated form fields, or one comma-separated string. */
function scopesOf(scopes: CreateTokenBody['scopes'] | CreateOwnTokenBody['scopes']): TokenScope[] {
  const list = typeof scopes === 'string' ? scopes.split(',').map((scope) => scope.trim()) : scopes;
  return [...new Set(list)] as TokenScope[];
}

function daysFromToday(days: number): string {
  const date = new Date(`${todayIso()}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A date-time filter as the stored form (ISO in UTC), so that the comparison is of one format. */
function isoTime(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

export async function createToken(
  context: ServerContext,
  caller: Caller,
  userId: number,
  body: CreateTokenBody,
): Promise<TokenWithToken> {
  const admin = requireUser(caller);
  requireScope(caller, 'api');
  if (!admin.isAdmin) throw forbidden();
  if (!(await userExists(context.db, userId))) throw notFound('User');
  return issueToken(context, userId, body, daysFromToday(DEFAULT_LIFETIME_DAYS));
}

/** A token of the caller's own (GitLab's POST /user/personal_access_tokens): `k8s_proxy` only, one day by default. */
export async function createOwnToken(
  context: ServerContext,
  caller: Caller,
  body: CreateOwnTokenBody,
): Promise<TokenWithToken> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  return issueToken(context, user.id, body, daysFromToday(1));
}

/** Makes the token and answers it with its token string, the only time the string is given. */
async function issueToken(
  context: ServerContext,
  userId: number,
  body: CreateTokenBody | CreateOwnTokenBody,
  defaultExpiry: string,
): Promise<TokenWithToken> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const id = await insertToken(context.db, {
    user_id: userId,
    name: body.name,
    description: body.description ?? null,
    token_sha256: hashToken(token),
    scopes: JSON.stringify(scopesOf(body.scopes)),
    expires_at: body.expires_at ?? defaultExpiry,
    revoked: 0,
    created_at: nowIso(),
  });
  const row = await findToken(context.db, id);
  if (!row) throw notFound();
  return { ...presentToken(row, todayIso()), token };
}

export async function listTokens(
  context: ServerContext,
  caller: Caller,
  query: ListTokensQuery,
  window: PageWindow,
): Promise<Page<Schemas['PersonalAccessToken']>> {
  const user = requireUser(caller);
  requireScope(caller, 'read_api');
  let userId: number | undefined = user.id;
  if (user.isAdmin) {
    userId = query.user_id;
    if (userId !== undefined && !(await userExists(context.db, userId))) throw notFound();
  } else if (query.user_id !== undefined && query.user_id !== user.id) {
    throw unauthorized();
  }
  const today = todayIso();
  const filter: TokenFilter = {
    userId,
    revoked: query.revoked,
    state: query.state,
    today,
    search: query.search === '' ? undefined : query.search,
    createdAfter: isoTime(query.created_after),
    createdBefore: isoTime(query.created_before),
    expiresAfter: query.expires_after,
    expiresBefore: query.expires_before,
  };
  const page = await pageOfTokens(context.db, filter, window);
  return { items: page.items.map((row) => presentToken(row, today)), total: page.total };
}

export async function getToken(context: ServerContext, caller: Caller, id: number): Promise<TokenDetails> {
  const user = requireUser(caller);
  requireScope(caller, 'read_api');
  const row = await findToken(context.db, id);
  if (row && (user.isAdmin || row.user_id === user.id)) return presentTokenWithLastUsedIps(row, todayIso());
  // Only administrators are told that a token does not exist.
  throw user.isAdmin ? notFound() : unauthorized();
}

export async function revokeTokenById(context: ServerContext, caller: Caller, id: number): Promise<void> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const row = await findToken(context.db, id);
  if (!row) throw notFound();
  if (!user.isAdmin && row.user_id !== user.id) throw notPermitted();
  await revokeToken(context.db, row.id);
}

/** The token the request came with (any scope may read or revoke itself). */
async function currentToken(context: ServerContext, caller: Caller) {
  requireUser(caller);
  const row = caller.tokenId === undefined ? undefined : await findToken(context.db, caller.tokenId);
  if (!row) throw unauthorized();
  return row;
}

export async function getCurrentToken(context: ServerContext, caller: Caller): Promise<TokenDetails> {
  return presentTokenWithLastUsedIps(await currentToken(context, caller), todayIso());
}

export async function revokeCurrentToken(context: ServerContext, caller: Caller): Promise<void> {
  const row = await currentToken(context, caller);
  await revokeToken(context.db, row.id);
}
