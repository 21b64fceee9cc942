// Rows of the users table as GitLab's user entities: UserBasic (lists for users who are no administrators),
// User (another user's profile), UserPublic (the caller's own account) and UserWithAdmin (administrators).
// This server has no sign-in pages, follows, two-factor authentication, external identities, time zones or
// bot users: those fields are what GitLab shows for an account without them.
import type { Schemas } from '../../core/http/types.js';
import type { UserRow } from './store.js';

type UserBasic = Schemas['UserBasic'];
type UserProfile = Schemas['User'];
type UserPublic = Schemas['UserPublic'];
type UserWithAdmin = Schemas['UserWithAdmin'];

export function presentUserBasic(row: UserRow, origin: string): UserBasic & { locked: boolean } {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    state: row.state,
    locked: false,
    avatar_url: row.avatar_url,
    web_url: `${origin}/${row.username}`,
  };
}

/** GitLab's `work_information`: "job title at organisation", either alone, or null without both. */
function workInformation(row: UserRow): string | null {
  if (row.job_title && row.organization) return `${row.job_title} at ${row.organization}`;
  return row.job_title || row.organization || null;
}

/**
 * The profile. `readsProfile`: whether the viewer may read the profile's private parts (the user, an
 * administrator, or anybody when the profile is not private): account creation time and follow counts.
 */
export function presentUserProfile(row: UserRow, origin: string, readsProfile: boolean): UserProfile {
  return {
    ...presentUserBasic(row, origin),
    ...(readsProfile ? { created_at: row.created_at } : {}),
    bio: row.bio,
    location: row.location,
    public_email: row.public_email,
    skype: row.skype,
    linkedin: row.linkedin,
    twitter: row.twitter,
    discord: row.discord,
    website_url: row.website_url,
    organization: row.organization,
    job_title: row.job_title,
    pronouns: row.pronouns,
    bot: false,
    work_information: workInformation(row),
    ...(readsProfile ? { followers: 0, following: 0, is_followed: false } : {}),
    local_time: null,
  };
}

/** The account itself: the profile and the private account fields. */
export function presentUserPublic(row: UserRow, origin: string, personalProjects: number): UserPublic {
  return {
    ...presentUserProfile(row, origin, true),
    last_sign_in_at: null,
    confirmed_at: row.confirmed_at,
    last_activity_on: null,
    email: row.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: row.projects_limit,
    current_sign_in_at: null,
    identities: [],
    can_create_group: row.can_create_group === 1,
    can_create_project: personalProjects < row.projects_limit,
    two_factor_enabled: false,
    external: row.external === 1,
    private_profile: row.private_profile === 1,
    commit_email: row.email,
  };
}

export function presentUserWithAdmin(row: UserRow, origin: string, personalProjects: number): UserWithAdmin {
  return { ...presentUserPublic(row, origin, personalProjects), is_admin: row.is_admin === 1 };
}
