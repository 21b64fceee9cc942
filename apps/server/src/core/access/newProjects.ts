// Where a new project may go and what it may be called: the rules every way of creating a project shares
// (`POST /projects`, `POST /projects/import`). GitLab's Project validations and Projects::CreateService.

import type { ServerContext } from '../context.js';
import { ApiError, forbidden } from '../http/errors.js';
import { nowIso } from '../store/database.js';
import { AccessLevel, canSee, findGroup, type GroupRow, groupAccessLevel } from './access.js';
import { type Caller, type CallerUser, requireUser } from './caller.js';

export const PROJECT_VISIBILITIES = ['private', 'internal', 'public'] as const;
export type ProjectVisibility = (typeof PROJECT_VISIBILITIES)[number];

/** GitLab's message for a path that breaks isValidProjectPath. */
export const PROJECT_PATH_RULE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

/** GitLab's project path rule. */
export function isValidProjectPath(path: string): boolean {
  return /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/.test(path) && !/\.(git|atom)$/.test(path) && path.length <= 255;
}

const VISIBILITY_RANK: Record<ProjectVisibility, number> = { private: 0, internal: 1, public: 2 };

/** A project is never more visible than its group. */
export function cappedVisibility(wanted: ProjectVisibility, groupVisibility: string): ProjectVisibility {
  const cap = (PROJECT_VISIBILITIES as readonly string[]).includes(groupVisibility)
    ? (groupVisibility as ProjectVisibility)
    : 'private';
  return VISIBILITY_RANK[wanted] <= VISIBILITY_RANK[cap] ? wanted : cap;
}

/** GitLab's validation error for a visibility above the group's (400). */
export function visibilityNotAllowed(wanted: ProjectVisibility, group: GroupRow): ApiError {
  return new ApiError(400, {
    message: { visibility_level: [`${wanted} is not allowed in a ${group.visibility} group`] },
  });
}

const namespaceNotFound = (): ApiError => new ApiError(404, { message: '404 Namespace Not Found' });

/**
 * The caller's personal namespace, GitLab's default for a new project: a namespace of kind `user` at the
 * caller's username in the groups table, owned by the caller, made on first use (group lists leave such
 * namespaces out).
 * Public: like GitLab's user namespaces it caps no project's visibility. A group of someone else's at that
 * path leaves the caller without one: then a namespace must be given.
 */
export async function personalNamespace(context: ServerContext, user: CallerUser): Promise<GroupRow> {
  const { db } = context;
  const owned = async (): Promise<GroupRow | undefined> => {
    const group = await findGroup(db, user.username);
    if (!group) return undefined;
    const owner = await db
      .selectFrom('members')
      .select('id')
      .where('source_type', '=', 'Group')
      .where('source_id', '=', group.id)
      .where('user_id', '=', user.id)
      .where('access_level', '>=', AccessLevel.OWNER)
      .executeTakeFirst();
    if (group.kind !== 'user' || group.parent_id !== null || !owner)
      throw new ApiError(400, {
        error: `namespace is missing, and the path of your personal namespace (${user.username}) is taken`,
      });
    return group;
  };
  const existing = await owned();
  if (existing) return existing;
  const now = nowIso();
  try {
    await db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('groups')
        .values({
          name: user.name,
          path: user.username,
          full_path: user.username,
          parent_id: null,
          visibility: 'public',
          description: '',
          created_at: now,
          kind: 'user',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('members')
        .values({
          source_type: 'Group',
          source_id: id,
          user_id: user.id,
          access_level: AccessLevel.OWNER,
          created_at: now,
        })
        .execute();
    });
  } catch (error) {
    // Another request made it meanwhile (the unique full_path): use it, if it is the caller's.
    const made = await owned();
    if (made) return made;
    throw error;
  }
  const made = await owned();
  if (!made) throw new Error(`personal namespace ${user.username} vanished after its creation`);
  return made;
}

/**
 * Whether a caller with `level` in the group may create projects in it (GitLab's `create_projects` of the
 * group policy): maintainers and above, developers too when the group's `project_creation_level` is
 * `developer`; nobody, administrators included, when it is `noone`.
 */
export function mayCreateProjectIn(group: Pick<GroupRow, 'project_creation_level'>, level: number): boolean {
  switch (group.project_creation_level) {
    case 'noone':
      return false;
    case 'developer':
      return level >= AccessLevel.DEVELOPER;
    default:
      return level >= AccessLevel.MAINTAINER;
  }
}

/**
 * The namespace a new project goes to (by ID or full path), the caller's personal namespace by default. The
 * caller must be allowed to create projects in it (mayCreateProjectIn); 403 otherwise, 404 for a namespace
 * the caller cannot see.
 */
export async function namespaceForNewProject(
  context: ServerContext,
  caller: Caller,
  namespace: number | string | undefined,
): Promise<GroupRow> {
  if (namespace === undefined || String(namespace) === '')
    return personalNamespace(context, requireUser(caller));
  const group = await findGroup(context.db, String(namespace));
  if (!group) throw namespaceNotFound();
  const level = await groupAccessLevel(context.db, caller, group);
  if (!canSee(caller, group.visibility, level)) throw namespaceNotFound();
  if (!mayCreateProjectIn(group, level))
    throw forbidden('403 Forbidden - You are not allowed to create projects in this namespace');
  return group;
}
