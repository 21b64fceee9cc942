// Who reaches a group through memberships, as an SQL condition on `groups.id` over the closure table of
// group ancestors (migration 016). The groups area's lists and core/access's group resolution share it, so
// a list and a read of one group never disagree.
import { type RawBuilder, sql } from 'kysely';
import { unexpiredMembership } from './membership.js';

/**
 * The group is one a signed-in user sees without all_available: a group they are a member of or a
 * descendant of one (membership is inherited), or an ancestor of a group they are a member of or of the
 * group of a project they are a member of (GitLab's ObjectHierarchy of authorized_groups and groups).
 * Correlated, over the closure table (migration 016): a list in name order tests the groups it walks until
 * its page is full, instead of collecting every group of the user's hierarchy first (hundreds of rows for a
 * member of many groups, most of a page's time).
 */
export function inMemberHierarchy(userId: number): RawBuilder<boolean> {
  // Expired memberships do not count.
  const counts = unexpiredMembership('members');
  return sql<boolean>`(
    exists (
      select 1 from group_ancestors as up
      where up.group_id = groups.id
        and exists (
          select 1 from members
          where members.source_type = 'Group' and members.source_id = up.ancestor_id
            and members.user_id = ${userId} and ${counts}))
    or exists (
      select 1 from group_ancestors as down
      where down.ancestor_id = groups.id
        and (
          exists (
            select 1 from members
            where members.source_type = 'Group' and members.source_id = down.group_id
              and members.user_id = ${userId} and ${counts})
          or exists (
            select 1 from projects
            join members on members.source_type = 'Project' and members.source_id = projects.id
            where projects.namespace_id = down.group_id and members.user_id = ${userId}
              and ${counts}))))`;
}
