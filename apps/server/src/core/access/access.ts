// Access levels and visibility: who may see a project or group and at which level they act.

import type { Selectable } from 'kysely';
import { forbidden, notFound, unauthorized } from '../http/errors.js';
import { type Db, todayIso } from '../store/database.js';
import { CachedUntilDatabaseChange } from '../store/databaseVersion.js';
import type { GroupsTable, ProjectsTable } from '../store/tables.js';
import { type Caller, requireScope, requireUser, type ScopeNeed } from './caller.js';
import { inMemberHierarchy } from './groupHierarchy.js';
import { membershipCounts, unexpiredMembership } from './membership.js';

export const AccessLevel = {
  NO_ACCESS: 0,
  GUEST: 10,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
  ADMIN: 60,
} as const;

export type ProjectRow = Selectable<ProjectsTable>;
export type GroupRow = Selectable<GroupsTable>;

export interface ProjectAccess {
  project: ProjectRow;
  namespace: GroupRow;
  /** The caller's effective level: the highest of direct, inherited and shared-group membership. */
  accessLevel: number;
}

/** The group and its ancestors, nearest first: one query of the closure table, whatever the depth. */
export async function groupChain(db: Db, groupId: number): Promise<GroupRow[]> {
  return db
    .selectFrom('group_ancestors as a')
    .innerJoin('groups', 'groups.id', 'a.ancestor_id')
    .selectAll('groups')
    .where('a.group_id', '=', groupId)
    .orderBy('a.depth')
    .execute();
}

async function memberLevel(
  db: Db,
  userId: number,
  sourceType: 'Project' | 'Group',
  sourceIds: number[],
): Promise<number> {
  if (sourceIds.length === 0) return 0;
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.max('access_level').as('level'))
    .where('user_id', '=', userId)
    .where('source_type', '=', sourceType)
    .where('source_id', 'in', sourceIds)
    .where(unexpiredMembership('members'))
    .executeTakeFirst();
  return Number(row?.level ?? 0);
}

export async function projectAccessLevel(
  db: Db,
  caller: Caller,
  project: ProjectRow,
  chain?: GroupRow[],
): Promise<number> {
  const user = caller.user;
  if (!user) return AccessLevel.NO_ACCESS;
  if (user.isAdmin) return AccessLevel.ADMIN;
  const groups = chain ?? (await groupChain(db, project.namespace_id));
  // Direct membership of the project and inherited membership of its groups, in one query.
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.max('access_level').as('level'))
    .where('user_id', '=', user.id)
    .where(unexpiredMembership('members'))
    .where((eb) =>
      eb.or([
        eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', project.id)]),
        eb.and([
          eb('source_type', '=', 'Group'),
          eb(
            'source_id',
            'in',
            groups.map((g) => g.id),
          ),
        ]),
      ]),
    )
    .executeTakeFirst();
  let level = Number(row?.level ?? 0);
  // Groups the project is shared with give their members at most the share's level.
  const links = await db
    .selectFrom('project_group_links')
    .selectAll()
    .where('project_id', '=', project.id)
    .execute();
  const today = todayIso();
  for (const link of links) {
    if (!membershipCounts(link.expires_at, today)) continue;
    const linkChain = await groupChain(db, link.group_id);
    const linkLevel = await memberLevel(
      db,
      user.id,
      'Group',
      linkChain.map((g) => g.id),
    );
    level = Math.max(level, Math.min(linkLevel, link.group_access));
  }
  return level;
}

export async function groupAccessLevel(db: Db, caller: Caller, group: GroupRow): Promise<number> {
  const user = caller.user;
  if (!user) return AccessLevel.NO_ACCESS;
  if (user.isAdmin) return AccessLevel.ADMIN;
  const chain = await groupChain(db, group.id);
  return memberLevel(
    db,
    user.id,
    'Group',
    chain.map((g) => g.id),
  );
}

/** Whether a caller with this level may see an object of this visibility. */
export function canSee(caller: Caller, visibility: string, accessLevel: number): boolean {
  if (visibility === 'public') return true;
  if (visibility === 'internal') return caller.user !== null;
  return accessLevel >= AccessLevel.GUEST;
}

export async function findProject(db: Db, idOrPath: string): Promise<ProjectRow | undefined> {
  if (/^\d+$/.test(idOrPath)) {
    return db.selectFrom('projects').selectAll().where('id', '=', Number(idOrPath)).executeTakeFirst();
  }
  const slash = idOrPath.lastIndexOf('/');
  if (slash <= 0) return undefined;
  return db
    .selectFrom('projects as p')
    .innerJoin('groups as g', 'g.id', 'p.namespace_id')
    .selectAll('p')
    .where('g.full_path', '=', idOrPath.slice(0, slash))
    .where('p.path', '=', idOrPath.slice(slash + 1))
    .executeTakeFirst();
}

export async function findGroup(db: Db, idOrPath: string): Promise<GroupRow | undefined> {
  const query = db.selectFrom('groups').selectAll();
  return /^\d+$/.test(idOrPath)
    ? query.where('id', '=', Number(idOrPath)).executeTakeFirst()
    : query.where('full_path', '=', idOrPath).executeTakeFirst();
}

/**
 * Resolves a project the caller may see, or 404 (also for private projects the caller may not see, so their
 * existence does not leak). With `minLevel`, a visible project the caller may not act on is a 403.
 */
export async function resolveProject(
  db: Db,
  caller: Caller,
  idOrPath: string,
  minLevel = 0,
): Promise<ProjectAccess> {
  const access = await projectAccessFor(db, caller, idOrPath);
  if (!access || !canSee(caller, access.project.visibility, access.accessLevel)) throw notFound('Project');
  // An anonymous caller who may see the project but not act on it must authenticate first: 401, not 403.
  if (access.accessLevel < minLevel) throw caller.user ? forbidden() : unauthorized();
  return access;
}

// Nearly every request resolves its project and the caller's level first (four queries or more); the answer
// only changes when the database does.
const projectAccessCache = new CachedUntilDatabaseChange<ProjectAccess | undefined>(5000);

/** The project, its namespace and the caller's level, whether or not the caller may see it. */
function projectAccessFor(db: Db, caller: Caller, idOrPath: string): Promise<ProjectAccess | undefined> {
  const user = caller.user;
  // The level depends on the user alone, and on the day (memberships and shares with a group expire).
  const key = `${user?.id ?? 'anonymous'}:${user?.isAdmin ? 'admin' : ''}:${todayIso()}:${idOrPath}`;
  return projectAccessCache.get(db, key, async () => {
    const project = await findProject(db, idOrPath);
    if (!project) return undefined;
    const chain = await groupChain(db, project.namespace_id);
    const namespace = chain[0];
    if (!namespace) return undefined;
    const accessLevel = await projectAccessLevel(db, caller, project, chain);
    return { project, namespace, accessLevel };
  });
}

/**
 * A project for an operation that needs a signed-in caller: 401 without a valid token (even for a project the
 * caller cannot see), 403 when the token's scope falls short, then resolveProject's 404 and 403.
 */
export async function resolveProjectForSignedIn(
  db: Db,
  caller: Caller,
  idOrPath: string,
  scope: ScopeNeed,
  minLevel: number,
): Promise<ProjectAccess> {
  requireUser(caller);
  requireScope(caller, scope);
  return resolveProject(db, caller, idOrPath, minLevel);
}

/**
 * Repository writes (branches, commits): a signed-in developer or above with an `api` token, of a project that
 * is not archived. An archived project is read-only: GitLab takes `:push_code` from everyone there (403).
 */
export async function resolveProjectForRepositoryWrite(
  db: Db,
  caller: Caller,
  idOrPath: string,
): Promise<ProjectAccess> {
  const access = await resolveProjectForSignedIn(db, caller, idOrPath, 'api', AccessLevel.DEVELOPER);
  if (access.project.archived === 1) throw forbidden();
  return access;
}

/**
 * Repository reads: anyone who sees a public or internal project reads its code; in a private project
 * guests do not (reporter and above do).
 */
export async function resolveProjectForRepositoryRead(
  db: Db,
  caller: Caller,
  idOrPath: string,
): Promise<ProjectAccess> {
  const access = await resolveProject(db, caller, idOrPath);
  if (access.project.visibility === 'private' && access.accessLevel < AccessLevel.REPORTER) throw forbidden();
  return access;
}

export interface GroupAccess {
  group: GroupRow;
  /** The caller's level: the highest of the memberships of the group and of its ancestors. */
  accessLevel: number;
}

// Group operations resolve their group and the caller's level first, as project operations do.
const groupAccessCache = new CachedUntilDatabaseChange<GroupAccess | undefined>(5000);

/**
 * Resolves a group the caller may see (by ID or full path; personal namespaces are no groups), or 404, also
 * for a private group the caller may not see. With `minLevel`, a visible group the caller may not act on is
 * a 403 (401 for an anonymous caller).
 */
export async function resolveGroup(
  db: Db,
  caller: Caller,
  idOrPath: string,
  minLevel = 0,
): Promise<GroupAccess> {
  const user = caller.user;
  // The level depends on the day as well: memberships expire.
  const key = `${user?.id ?? 'anonymous'}:${user?.isAdmin ? 'admin' : ''}:${todayIso()}:${idOrPath}`;
  const access = await groupAccessCache.get(db, key, async () => {
    const group = await findGroup(db, idOrPath);
    if (group?.kind !== 'group') return undefined;
    const accessLevel = await groupAccessLevel(db, caller, group);
    const visible =
      canSee(caller, group.visibility, accessLevel) ||
      (caller.user !== null && (await reachesThroughMembership(db, caller.user.id, group.id)));
    return visible ? { group, accessLevel } : undefined;
  });
  if (!access) throw notFound('Group');
  if (access.accessLevel < minLevel) throw caller.user ? forbidden() : unauthorized();
  return access;
}

/**
 * Whether the user reaches the group through a membership below it (a subgroup at any depth, or a project of
 * the group or of a subgroup): GitLab lets such a user read a private group without any access level in it.
 * The same rule as the groups area's lists (inMemberHierarchy).
 */
async function reachesThroughMembership(db: Db, userId: number, groupId: number): Promise<boolean> {
  const row = await db
    .selectFrom('groups')
    .select('id')
    .where('groups.id', '=', groupId)
    .where(inMemberHierarchy(userId))
    .executeTakeFirst();
  return row !== undefined;
}

/** A group for an operation that needs a signed-in caller: 401 and scope checks first, then resolveGroup's. */
export async function resolveGroupForSignedIn(
  db: Db,
  caller: Caller,
  idOrPath: string,
  scope: ScopeNeed,
  minLevel: number,
): Promise<GroupAccess> {
  requireUser(caller);
  requireScope(caller, scope);
  return resolveGroup(db, caller, idOrPath, minLevel);
}

export function projectFullPath(access: Pick<ProjectAccess, 'project' | 'namespace'>): string {
  return `${access.namespace.full_path}/${access.project.path}`;
}
