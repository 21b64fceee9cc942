// Member rows as GitLab's `Member` entity: the user's basic fields merged with the membership's.
import type { Schemas } from '../../core/http/types.js';
import type { MemberRow } from './store.js';

export type Member = Schemas['Member'];
type MemberAccessLevel = Member['access_level'];

const MEMBER_LEVELS: readonly number[] = [10, 20, 30, 40, 50];

function memberLevel(level: number): MemberAccessLevel {
  // Memberships hold these levels only (fixtures and approvals check them): another is a broken row.
  if (!MEMBER_LEVELS.includes(level)) throw new Error(`membership with access level ${level}`);
  return level as MemberAccessLevel;
}

function createdBy(row: MemberRow, id: number, origin: string): NonNullable<Member['created_by']> {
  const username = row.created_by_username ?? '';
  return {
    id,
    username,
    name: row.created_by_name ?? '',
    state: row.created_by_state ?? 'active',
    avatar_url: row.created_by_avatar_url,
    web_url: `${origin}/${username}`,
  };
}

/**
 * This server has no seat limits or account locking: every membership is `active` and no member is locked.
 */
export function presentMember(row: MemberRow, origin: string): Member {
  return {
    id: row.user_id,
    username: row.username,
    name: row.name,
    state: row.state,
    locked: false,
    avatar_url: row.avatar_url,
    web_url: `${origin}/${row.username}`,
    access_level: memberLevel(row.access_level),
    created_at: row.created_at,
    expires_at: row.expires_at,
    // GitLab exposes the maker only when there is one (`expose_nil: false`).
    ...(row.created_by_id === null ? {} : { created_by: createdBy(row, row.created_by_id, origin) }),
    membership_state: 'active',
  };
}
