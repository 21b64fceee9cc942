// The members of groups and projects, read (GitLab v4's lib/api/members.rb; the seeds do not show it; write.ts
// adds, changes and removes them).
// - Direct members: the source's own memberships.
// - All members (`/members/all`): for a group, its own and its ancestors' members; for a project, its own,
//   those of its namespace's group chain and those of the groups it is shared with (and their ancestors),
//   capped at the share's level. One entry per user with the highest level (MembersFinder and
//   GroupMembersFinder). Members of a share's groups that the caller cannot see are left out for callers
//   without access to the project, as GitLab's `public_or_visible_to_user`.
// Who may read them: a signed-in caller (GitLab's `authenticate!` before every members route) who sees the
// group or project; 404 otherwise.
import {
  AccessLevel,
  groupChain,
  resolveGroup,
  resolveGroupForSignedIn,
  resolveProjectForSignedIn,
} from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError } from '../../core/http/errors.js';
import { todayIso } from '../../core/store/database.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { type Member, presentMember } from './present.js';
import {
  activeShares,
  findAnyMember,
  findDirectMember,
  type MemberFilter,
  type MembershipSet,
  pageOfAllMembers,
  pageOfDirectMembers,
} from './store.js';

export type SourceType = 'Project' | 'Group';

/** The query of the member lists as the validator leaves it. */
export interface MemberListQuery {
  query?: string;
  user_ids?: unknown;
  skip_users?: unknown;
}

/** GitLab's answer for a member that is not there (ActiveRecord::RecordNotFound). */
const memberNotFound = (): ApiError => new ApiError(404, { message: '404 Not found' });

interface ResolvedSource {
  source: { type: SourceType; id: number };
  /** Every membership that counts for the source, for the "all" reads. */
  sets(): Promise<MembershipSet[]>;
}

/** A group's ID if the caller may see it (the rule of GET /groups/:id). */
async function visibleToCaller(context: ServerContext, caller: Caller, groupId: number): Promise<boolean> {
  try {
    await resolveGroup(context.db, caller, String(groupId));
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

/** The group chain's memberships, the group's own first (rank `firstRank`), then each ancestor's. */
async function chainSets(
  context: ServerContext,
  groupId: number,
  firstRank: number,
): Promise<MembershipSet[]> {
  const chain = await groupChain(context.db, groupId);
  return chain.map((group, depth) => ({
    sourceType: 'Group',
    sourceIds: [group.id],
    rank: firstRank + depth,
  }));
}

async function resolveSource(
  context: ServerContext,
  caller: Caller,
  type: SourceType,
  idOrPath: string,
): Promise<ResolvedSource> {
  if (type === 'Group') {
    const { group } = await resolveGroupForSignedIn(context.db, caller, idOrPath, 'read_api', 0);
    return { source: { type, id: group.id }, sets: () => chainSets(context, group.id, 0) };
  }
  const access = await resolveProjectForSignedIn(context.db, caller, idOrPath, 'read_api', 0);
  const { project } = access;
  const sets = async (): Promise<MembershipSet[]> => {
    const result: MembershipSet[] = [{ sourceType: 'Project', sourceIds: [project.id], rank: 0 }];
    result.push(...(await chainSets(context, project.namespace_id, 1)));
    // Shares rank after every group of the project's own chain.
    const shareRank = result.length + 1;
    const seesEveryShare = access.accessLevel >= AccessLevel.GUEST;
    for (const share of await activeShares(context.db, project.id, todayIso())) {
      const ids: number[] = [];
      for (const group of await groupChain(context.db, share.group_id)) {
        if (seesEveryShare || (await visibleToCaller(context, caller, group.id))) ids.push(group.id);
      }
      result.push({ sourceType: 'Group', sourceIds: ids, rank: shareRank, cap: share.group_access });
    }
    return result;
  };
  return { source: { type, id: project.id }, sets };
}

/** `user_ids` and `skip_users`: one or more integers, or comma-separated lists of them (`1,2`). */
function idList(value: unknown): number[] {
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return values
    .flatMap((item) => String(item).split(','))
    .filter((text) => /^\d+$/.test(text.trim()))
    .map(Number)
    .filter((id) => Number.isSafeInteger(id));
}

function filterOf(query: MemberListQuery): MemberFilter {
  return {
    query: query.query === undefined || query.query === '' ? undefined : query.query,
    userIds: idList(query.user_ids),
    skipUserIds: idList(query.skip_users),
  };
}

export async function listMembers(
  context: ServerContext,
  caller: Caller,
  type: SourceType,
  idOrPath: string,
  includeInherited: boolean,
  query: MemberListQuery,
  window: PageWindow,
  origin: string,
): Promise<Page<Member>> {
  const resolved = await resolveSource(context, caller, type, idOrPath);
  const filter = filterOf(query);
  const page = includeInherited
    ? await pageOfAllMembers(context.db, await resolved.sets(), filter, window)
    : await pageOfDirectMembers(context.db, resolved.source, filter, window);
  return { items: page.items.map((row) => presentMember(row, origin)), total: page.total };
}

export async function getMember(
  context: ServerContext,
  caller: Caller,
  type: SourceType,
  idOrPath: string,
  includeInherited: boolean,
  userId: number,
  origin: string,
): Promise<Member> {
  const resolved = await resolveSource(context, caller, type, idOrPath);
  const row = includeInherited
    ? await findAnyMember(context.db, await resolved.sets(), userId)
    : await findDirectMember(context.db, resolved.source, userId);
  if (!row) throw memberNotFound();
  return presentMember(row, origin);
}
