// Group rows as the spec's Group and GroupDetails bodies. The settings no API of ours changes are GitLab's
// defaults for a new group.
import type { Schemas } from '../../core/http/types.js';
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

export function presentGroup(row: GroupRecord, extras: GroupExtras, origin: string): Group {
  const group: Group = {
    id: row.id,
    name: row.name,
    path: row.path,
    description: row.description,
    visibility: row.visibility as Group['visibility'],
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: 'developer',
    auto_devops_enabled: null,
    subgroup_creation_level: 'maintainer',
    emails_disabled: null,
    mentions_disabled: null,
    lfs_enabled: true,
    default_branch_protection: 2,
    avatar_url: null,
    web_url: `${origin}/groups/${row.full_path}`,
    request_access_enabled: true,
    full_name: extras.fullName,
    full_path: row.full_path,
    parent_id: row.parent_id,
    created_at: row.created_at,
  };
  if (extras.statistics) group.statistics = extras.statistics;
  if (extras.customAttributes) group.custom_attributes = extras.customAttributes;
  return group;
}
