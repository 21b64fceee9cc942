// Group rows as the spec's Group and GroupDetails bodies, with the settings the group stores (migration 029).
import type { Schemas } from '../../core/http/types.js';
import { avatarUrl } from '../avatars/index.js';
import type { GroupRecord } from './store.js';

export type Group = Schemas['Group'];
export type GroupDetails = Schemas['GroupDetails'];
export type GroupStatistics = Schemas['GroupStatistics'];

/** What a page of groups adds to its rows (each read with one query for the page). */
export interface GroupExtras {
  fullName: string;
  /** Only when an administrator asked for them. */
  customAttributes?: Schemas['CustomAttribute'][];
  /** Only when an administrator asked for them. */
  statistics?: GroupStatistics;
}

/** A three-state setting (0, 1 or null when not set). */
const flagOrNull = (value: number | null): boolean | null => (value === null ? null : value === 1);

export function presentGroup(row: GroupRecord, extras: GroupExtras, origin: string): Group {
  const group: Group = {
    id: row.id,
    name: row.name,
    path: row.path,
    description: row.description,
    visibility: row.visibility as Group['visibility'],
    share_with_group_lock: row.share_with_group_lock === 1,
    require_two_factor_authentication: row.require_two_factor_authentication === 1,
    two_factor_grace_period: row.two_factor_grace_period,
    project_creation_level: row.project_creation_level,
    auto_devops_enabled: flagOrNull(row.auto_devops_enabled),
    subgroup_creation_level: row.subgroup_creation_level,
    emails_disabled: flagOrNull(row.emails_disabled),
    mentions_disabled: flagOrNull(row.mentions_disabled),
    lfs_enabled: row.lfs_enabled === 1,
    default_branch_protection: row.default_branch_protection,
    avatar_url: row.avatar ? `${origin}${avatarUrl('group', row.id, row.avatar)}` : null,
    web_url: `${origin}/groups/${row.full_path}`,
    request_access_enabled: row.request_access_enabled === 1,
    full_name: extras.fullName,
    full_path: row.full_path,
    parent_id: row.parent_id,
    created_at: row.created_at,
  };
  if (extras.statistics) group.statistics = extras.statistics;
  if (extras.customAttributes) group.custom_attributes = extras.customAttributes;
  return group;
}
