// Adding, changing and removing direct members of groups and projects (issue 27; GitLab v4's
// lib/api/members.rb with Members::CreateService, UpdateService and DestroyService and the member policies):
// - who manages members: a group's owners (directly or through an ancestor; `admin_group_member`), a
//   project's maintainers and owners (`admin_project_member`), and administrators; 403 for others who can
//   see the source, 404 for those who cannot;
// - no level above the caller's own, neither the level given nor the level of the member changed or
//   removed (administrators excepted); so a project's owner level only by its owners (`manage_owners`);
// - the last owner of a group stays, and so does the owner of a personal project: 403 for removing or
//   demoting them;
// - a member may leave (remove themselves) without managing members;
// - a membership expires when its last day (`expires_at`) begins: it no longer counts, is not listed, and is
//   removed (jobs.ts); a user whose membership expired may be added again.
import {
  AccessLevel,
  groupChain,
  resolveGroupForSignedIn,
  resolveProjectForSignedIn,
} from '../../core/access/access.js';
import { type Caller, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, conflict, forbidden } from '../../core/http/errors.js';
import type { QueryParams, RequestBody } from '../../core/http/types.js';
import { nowIso, todayIso } from '../../core/store/database.js';
import { scheduleExpiry } from './jobs.js';
import { type Member, presentMember } from './present.js';
import {
  addMemberRow,
  findDirectMember,
  findUserFor,
  type MemberRow,
  ownerCount,
  removeMemberRows,
  type Source,
  subtreeOfGroup,
  updateMemberRow,
} from './store.js';

export type AddMemberBody = RequestBody<'addGroupMember'>;
export type EditMemberBody = RequestBody<'editGroupMember'>;
export type RemoveMemberQuery = QueryParams<'removeGroupMember'>;

/** A source resolved for a write: what it is, the caller's level in it, and who may never lose ownership. */
interface WritableSource {
  source: Source;
  callerLevel: number;
  /** The level that manages members here. */
  manages: number;
  /** Whether taking `member`'s owner level away would leave the source without its owner. */
  keepsOwner(member: MemberRow): Promise<boolean>;
}

async function writableSource(
  context: ServerContext,
  caller: Caller,
  type: Source['type'],
  idOrPath: string,
): Promise<WritableSource> {
  const { db } = context;
  if (type === 'Group') {
    const { group, accessLevel } = await resolveGroupForSignedIn(db, caller, idOrPath, 'api', 0);
    return {
      source: { type, id: group.id },
      callerLevel: accessLevel,
      manages: AccessLevel.OWNER,
      // GitLab's `last_owner?`: the group's owners, its own and its ancestors'.
      keepsOwner: async (member) => {
        if (member.access_level < AccessLevel.OWNER) return false;
        const chain = await groupChain(db, group.id);
        return (
          (await ownerCount(
            db,
            chain.map((g) => g.id),
          )) <= 1
        );
      },
    };
  }
  const { project, namespace, accessLevel } = await resolveProjectForSignedIn(db, caller, idOrPath, 'api', 0);
  return {
    source: { type, id: project.id },
    callerLevel: accessLevel,
    manages: AccessLevel.MAINTAINER,
    // The holder of a personal namespace owns its projects for good.
    keepsOwner: async (member) =>
      namespace.kind === 'user' && member.username.toLowerCase() === namespace.path.toLowerCase(),
  };
}

/** A membership's last day, which may not be in the past (GitLab's `expires_at` validation). */
function checkExpiry(expiresAt: string | undefined): void {
  if (expiresAt !== undefined && expiresAt < todayIso())
    throw new ApiError(400, { message: { expires_at: ['cannot be a date in the past'] } });
}

/** GitLab's answer for a direct member that is not there. */
const memberNotFound = (): ApiError => new ApiError(404, { message: '404 Not found' });

async function directMember(
  context: ServerContext,
  source: Source,
  userId: number,
  includeExpired = false,
): Promise<MemberRow> {
  const row = await findDirectMember(context.db, source, userId, includeExpired);
  if (!row) throw memberNotFound();
  return row;
}

export async function addMember(
  context: ServerContext,
  caller: Caller,
  type: Source['type'],
  idOrPath: string,
  body: AddMemberBody,
  origin: string,
): Promise<Member> {
  const user = requireUser(caller);
  const writable = await writableSource(context, caller, type, idOrPath);
  if (writable.callerLevel < writable.manages) throw forbidden();
  const who = body.user_id !== undefined ? { id: body.user_id } : { username: body.username ?? '' };
  const target = await findUserFor(context.db, who);
  if (target && (await findDirectMember(context.db, writable.source, target.id)))
    throw conflict('Member already exists');
  if (!target) throw new ApiError(404, { message: '404 User Not Found' });
  checkExpiry(body.expires_at);
  if (body.access_level > writable.callerLevel) throw forbidden();
  const added = await addMemberRow(context.db, writable.source, {
    userId: target.id,
    accessLevel: body.access_level,
    expiresAt: body.expires_at ?? null,
    createdBy: user.id,
    now: nowIso(),
    today: todayIso(),
  });
  if (!added) throw conflict('Member already exists');
  // Read before the removal is queued: a membership whose last day is today goes at once.
  const row = await directMember(context, writable.source, target.id, true);
  if (body.expires_at !== undefined) await scheduleExpiry(context, body.expires_at);
  return presentMember(row, origin);
}

export async function editMember(
  context: ServerContext,
  caller: Caller,
  type: Source['type'],
  idOrPath: string,
  userId: number,
  body: EditMemberBody,
  origin: string,
): Promise<Member> {
  const writable = await writableSource(context, caller, type, idOrPath);
  if (writable.callerLevel < writable.manages) throw forbidden();
  const member = await directMember(context, writable.source, userId);
  checkExpiry(body.expires_at);
  if (body.access_level > writable.callerLevel || member.access_level > writable.callerLevel)
    throw forbidden();
  if (body.access_level < member.access_level && (await writable.keepsOwner(member))) throw forbidden();
  await updateMemberRow(context.db, writable.source, userId, {
    accessLevel: body.access_level,
    expiresAt: body.expires_at,
  });
  const row = await directMember(context, writable.source, userId, true);
  if (body.expires_at !== undefined) await scheduleExpiry(context, body.expires_at);
  return presentMember(row, origin);
}

export async function removeMember(
  context: ServerContext,
  caller: Caller,
  type: Source['type'],
  idOrPath: string,
  userId: number,
  query: RemoveMemberQuery,
): Promise<void> {
  const user = requireUser(caller);
  const writable = await writableSource(context, caller, type, idOrPath);
  const member = await directMember(context, writable.source, userId);
  const leaving = member.user_id === user.id;
  if (!leaving && (writable.callerLevel < writable.manages || member.access_level > writable.callerLevel))
    throw forbidden();
  if (await writable.keepsOwner(member)) throw forbidden();
  const { source } = writable;
  const subtree =
    source.type === 'Group'
      ? await subtreeOfGroup(context.db, source.id)
      : { subgroupIds: [], projectIds: [source.id] };
  const withSubresources = source.type === 'Group' && query.skip_subresources !== true;
  await removeMemberRows(context.db, source, userId, {
    subgroupIds: withSubresources ? subtree.subgroupIds : [],
    projectIds: withSubresources ? subtree.projectIds : [],
    unassignIn: query.unassign_issuables === true ? subtree.projectIds : [],
  });
}
