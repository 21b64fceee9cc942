// Rows of the access-request area as the spec's response bodies.
import type { Schemas } from '../../core/http/types.js';
import type { RequesterRow } from './store.js';

export type AccessRequest = Schemas['AccessRequest'];
export type AccessRequestMember = Schemas['AccessRequestMember'];
type GrantableLevel = AccessRequestMember['access_level'];

export function presentRequest(row: RequesterRow): AccessRequest {
  return {
    id: row.user_id,
    username: row.username,
    name: row.name,
    state: row.state,
    created_at: row.user_created_at,
    requested_at: row.requested_at,
  };
}

/** The member an approved request became: the request's user with the level granted. */
export function presentMember(row: RequesterRow, accessLevel: GrantableLevel): AccessRequestMember {
  return { ...presentRequest(row), requested_at: null, access_level: accessLevel };
}
