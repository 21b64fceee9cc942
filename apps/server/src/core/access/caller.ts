// Who is calling: the user behind the token (or nobody) and what the token's scopes allow.
import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import { forbidden, insufficientScope, notFound, unauthorized } from '../http/errors.js';
import { type Db, todayIso } from '../store/database.js';
import { CachedUntilDatabaseChange } from '../store/databaseVersion.js';
import type { UsersTable } from '../store/tables.js';

export interface CallerUser {
  id: number;
  username: string;
  name: string;
  email: string;
  state: string;
  isAdmin: boolean;
  avatarUrl: string | null;
  createdAt: string;
}

export interface Caller {
  user: CallerUser | null;
  scopes: readonly string[];
  /** The ID of the personal access token the request came with (GitLab's `access_token`); none anonymous. */
  tokenId?: number;
}

export const ANONYMOUS: Caller = { user: null, scopes: [] };

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The users columns a caller is made of (a row with more, such as `selectAll()`, does as well). */
type CallerColumns =
  | 'id'
  | 'username'
  | 'name'
  | 'email'
  | 'state'
  | 'is_admin'
  | 'avatar_url'
  | 'created_at';

export function toCallerUser(row: Pick<Selectable<UsersTable>, CallerColumns>): CallerUser {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    state: row.state,
    isAdmin: row.is_admin === 1,
    avatarUrl: row.avatar_url,
    createdAt: row.created_at,
  };
}

interface CachedToken {
  caller: Caller;
  expiresAt: string | null;
  /** The token's user is blocked: a valid token, refused with 403 (GitLab's api_access_denied_message). */
  blocked: boolean;
}

// Every request looks its token up; tokens and users change only with the database (a revocation or a
// blocked user in this or another server process drops the cache).
const tokenCache = new CachedUntilDatabaseChange<CachedToken | 'invalid'>(10_000);

/**
 * Finds the caller of a token; an unknown, revoked or expired token is a 401, a valid token of a blocked user
 * a 403 (GitLab's API guard: the user may not `access_api`), and of a user in another state a 401.
 */
export async function callerForToken(db: Db, token: string): Promise<Caller> {
  // Keyed by the token itself: hashing it on every request was 1% of a read; the digest is only for the lookup.
  return callerOfLookup(await tokenCache.get(db, token, () => lookUpToken(db, hashToken(token))));
}

/**
 * callerForToken's answer when the token's lookup is kept for the database as it is now, without waiting
 * (a request's first step: no promise and no turn of the microtask queue); undefined when it is not kept.
 */
export function knownCallerForToken(db: Db, token: string): Caller | undefined {
  const cached = tokenCache.peek(db, token);
  return cached === undefined ? undefined : callerOfLookup(cached);
}

function callerOfLookup(cached: CachedToken | 'invalid'): Caller {
  if (cached === 'invalid') throw unauthorized();
  if (cached.expiresAt && cached.expiresAt <= todayIso()) throw unauthorized();
  if (cached.blocked) throw forbidden('403 Forbidden - Your account has been blocked.');
  return cached.caller;
}

async function lookUpToken(db: Db, digest: string): Promise<CachedToken | 'invalid'> {
  const row = await db
    .selectFrom('personal_access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('u')
    .select(['t.id as token_id', 't.scopes', 't.expires_at', 't.revoked'])
    .where('t.token_sha256', '=', digest)
    .executeTakeFirst();
  const blocked = row?.state === 'blocked' || row?.state === 'ldap_blocked';
  if (!row || row.revoked === 1 || (row.state !== 'active' && !blocked)) return 'invalid';
  return {
    caller: { user: toCallerUser(row), scopes: JSON.parse(row.scopes) as string[], tokenId: row.token_id },
    expiresAt: row.expires_at,
    blocked,
  };
}

/**
 * The caller an administrator acts as with `sudo` (GitLab's `sudo!`): a user given by ID or username, with
 * the token's scopes. Anonymous callers get 401, others than administrators 403, a token without the `sudo`
 * scope 403 insufficient_scope, an unknown user 404.
 */
export async function sudoCaller(db: Db, caller: Caller, identifier: string): Promise<Caller> {
  if (!caller.user) throw unauthorized();
  if (!caller.user.isAdmin) throw forbidden('403 Forbidden - Must be admin to use sudo');
  if (!caller.scopes.includes('sudo')) throw insufficientScope('sudo');
  // GitLab's find_user: digits are an ID, anything else a username, compared case-insensitively.
  const query = db.selectFrom('users').selectAll();
  const row = await (/^\d+$/.test(identifier)
    ? query.where('id', '=', Number(identifier))
    : query.where((eb) => eb(eb.fn('lower', ['username']), '=', identifier.toLowerCase()))
  ).executeTakeFirst();
  if (!row) throw notFound(`User with ID or username '${identifier}'`);
  return { user: toCallerUser(row), scopes: caller.scopes, tokenId: caller.tokenId };
}

/** The kinds of access a token scope can grant. */
export type ScopeNeed = 'read_repository' | 'read_api' | 'api';

/**
 * Checks that the token's scopes allow the request: `api` allows everything, `read_api` every read,
 * `read_repository` the repository reads. Anonymous callers pass: visibility decides for them.
 */
export function requireScope(caller: Caller, need: ScopeNeed): void {
  if (!caller.user) return;
  const scopes = caller.scopes;
  if (scopes.includes('api')) return;
  if (need === 'read_api' && scopes.includes('read_api')) return;
  if (need === 'read_repository' && (scopes.includes('read_repository') || scopes.includes('read_api')))
    return;
  throw insufficientScope(need);
}

export function requireUser(caller: Caller): CallerUser {
  if (!caller.user) throw unauthorized();
  return caller.user;
}
