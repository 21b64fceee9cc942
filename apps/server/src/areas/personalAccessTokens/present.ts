// Rows of personal_access_tokens as GitLab's PersonalAccessToken entities: the token string only in the
// answer that made it (PersonalAccessTokenWithToken), the addresses of use (none recorded) on single reads.
import type { Schemas } from '../../core/http/types.js';
import type { TokenRow } from './store.js';

type PersonalAccessToken = Schemas['PersonalAccessToken'];

/** Whether a token works on `today` (YYYY-MM-DD): not revoked, and its expiry day not yet come. */
export function isActive(row: TokenRow, today: string): boolean {
  return row.revoked === 0 && (row.expires_at === null || row.expires_at > today);
}

export function presentToken(row: TokenRow, today: string): PersonalAccessToken {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    revoked: row.revoked === 1,
    // Migration 030 gave every older token its user's creation time; null is never stored.
    created_at: row.created_at ?? new Date(0).toISOString(),
    scopes: JSON.parse(row.scopes) as PersonalAccessToken['scopes'],
    user_id: row.user_id,
    last_used_at: row.last_used_at,
    active: isActive(row, today),
    expires_at: row.expires_at,
  };
}

export function presentTokenWithLastUsedIps(
  row: TokenRow,
  today: string,
): Schemas['PersonalAccessTokenWithLastUsedIps'] {
  return { ...presentToken(row, today), last_used_ips: [] };
}
