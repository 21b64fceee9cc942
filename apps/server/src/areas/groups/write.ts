// Making and changing groups (issue 27; GitLab v4's POST and PUT /groups, Groups::CreateService and
// Groups::UpdateService, the group policy). Who may:
// - create a top-level group: a user who may create groups (`can_create_group`; administrators always);
// - create a subgroup: the parent's owners, its maintainers when its `subgroup_creation_level` is
//   `maintainer`, and administrators (`create_subgroup`), once they can see the parent (404 otherwise);
// - change a group: its owners, directly or through an ancestor, and administrators (`admin_group`).
// The creator becomes the new group's owner. A subgroup is never more visible than its parent, and a group
// never less visible than its subgroups and projects.
import { AccessLevel, resolveGroupForSignedIn } from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, forbidden } from '../../core/http/errors.js';
import type { RequestBody } from '../../core/http/types.js';
import { isUniqueViolation, nowIso } from '../../core/store/database.js';
import { avatarChange, removeAvatars, storeAvatar, type UploadedImage } from '../avatars/index.js';
import {
  type GroupChanges,
  insertGroupWithOwner,
  pathTaken,
  updateGroupRow,
  userMayCreateGroups,
  visibilitiesBelow,
  visibilityOfGroup,
} from './store.js';

export type CreateGroupBody = RequestBody<'createGroup'>;
export type EditGroupBody = RequestBody<'editGroup'>;
type Settings = Omit<CreateGroupBody, 'name' | 'path' | 'parent_id'>;

const VISIBILITY_RANK: Record<string, number> = { private: 0, internal: 1, public: 2 };

/**
 * The first-level paths of the server's own routes and GitLab's (Gitlab::PathRegex's top-level routes): a
 * top-level group may not take them, as its web URL or files would collide with them.
 */
const RESERVED_TOP_LEVEL = new Set([
  '-',
  '.well-known',
  'admin',
  'api',
  'assets',
  'dashboard',
  'docs',
  'explore',
  'favicon.ico',
  'favicon.png',
  'files',
  'groups',
  'health_check',
  'help',
  'import',
  'login',
  'oauth',
  'openapi.json',
  'openapi.yaml',
  'profile',
  'projects',
  'public',
  'robots.txt',
  'search',
  'snippets',
  'uploads',
  'users',
  'v2',
]);

/** GitLab's validation errors of a group, keyed by field. */
type FieldErrors = Record<string, string[]>;

/** The errors as POST /groups answers them: `Failed to save group {:path=>["has already been taken"]}`. */
function createFailure(errors: FieldErrors): ApiError {
  const entries = Object.entries(errors).map(
    ([field, messages]) => `:${field}=>[${messages.map((text) => JSON.stringify(text)).join(', ')}]`,
  );
  return new ApiError(400, { message: `Failed to save group {${entries.join(', ')}}` });
}

/** The errors as PUT /groups/:id answers them (render_validation_error!). */
function updateFailure(errors: FieldErrors): ApiError {
  return new ApiError(400, { message: errors });
}

const flag = (value: boolean | undefined): number | undefined =>
  value === undefined ? undefined : value ? 1 : 0;

/** The settings of the body as column values; what is not given is absent. */
function settingColumns(body: Settings): GroupChanges {
  const columns: GroupChanges = {
    description: body.description,
    visibility: body.visibility,
    share_with_group_lock: flag(body.share_with_group_lock),
    require_two_factor_authentication: flag(body.require_two_factor_authentication),
    two_factor_grace_period: body.two_factor_grace_period,
    project_creation_level: body.project_creation_level,
    auto_devops_enabled: flag(body.auto_devops_enabled),
    subgroup_creation_level: body.subgroup_creation_level,
    emails_disabled: flag(body.emails_disabled),
    mentions_disabled: flag(body.mentions_disabled),
    lfs_enabled: flag(body.lfs_enabled),
    request_access_enabled: flag(body.request_access_enabled),
    default_branch_protection: body.default_branch_protection,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

/** Where the group may not go on visibility: above its parent. */
function parentVisibilityError(visibility: string, parent: { visibility: string } | undefined): string[] {
  if (!parent || (VISIBILITY_RANK[visibility] ?? 0) <= (VISIBILITY_RANK[parent.visibility] ?? 0)) return [];
  return [`${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`];
}

/** Who may create a subgroup of `parent` (GitLab's `create_subgroup`). */
function mayCreateSubgroup(level: number, parent: { subgroup_creation_level: string }): boolean {
  if (level >= AccessLevel.OWNER) return true;
  return level >= AccessLevel.MAINTAINER && parent.subgroup_creation_level === 'maintainer';
}

/** Creates the group and returns its ID; the caller becomes its owner. */
export async function createGroup(
  context: ServerContext,
  caller: Caller,
  body: CreateGroupBody,
  avatarFile: UploadedImage | undefined,
): Promise<number> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const { db } = context;
  let parent: Awaited<ReturnType<typeof resolveGroupForSignedIn>>['group'] | undefined;
  if (body.parent_id !== undefined) {
    const access = await resolveGroupForSignedIn(db, caller, String(body.parent_id), 'api', 0);
    if (!mayCreateSubgroup(access.accessLevel, access.group)) throw forbidden();
    parent = access.group;
  } else if (!user.isAdmin && !(await userMayCreateGroups(db, user.id))) {
    throw forbidden();
  }

  const errors: FieldErrors = {};
  const avatar = avatarChange((body as { avatar?: unknown }).avatar, avatarFile, errors, false);
  const file = avatar === 'remove' ? undefined : avatar;
  const parentId = parent?.id ?? null;
  if (parentId === null && RESERVED_TOP_LEVEL.has(body.path.toLowerCase()))
    errors.path = [`${body.path} is a reserved name`];
  else if (await pathTaken(db, parentId, body.path)) errors.path = ['has already been taken'];
  const visibility = body.visibility ?? 'private';
  const visibilityErrors = parentVisibilityError(visibility, parent);
  if (visibilityErrors.length > 0) errors.visibility_level = visibilityErrors;
  if (Object.keys(errors).length > 0) throw createFailure(errors);

  const { name, path } = body;
  // The check above and the insert are two statements: a group made meanwhile under the same path (a
  // concurrent request, another instance) is refused as the check refuses it.
  const id = await insertGroupWithOwner(
    db,
    {
      ...settingColumns(body),
      name,
      path,
      full_path: parent ? `${parent.full_path}/${path}` : path,
      parent_id: parentId,
      visibility,
      description: body.description ?? '',
      created_at: nowIso(),
      kind: 'group',
    },
    user.id,
  ).catch((error: unknown) => {
    throw isUniqueViolation(error) ? createFailure({ path: ['has already been taken'] }) : error;
  });
  if (file) await updateGroupRow(db, id, { avatar: await storeAvatar(context, 'group', id, file) });
  return id;
}

/** Changes the group (its owners and administrators) and returns its ID. */
export async function editGroup(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  body: EditGroupBody | undefined,
  avatarFile: UploadedImage | undefined,
): Promise<number> {
  const { db } = context;
  const { group } = await resolveGroupForSignedIn(db, caller, idOrPath, 'api', AccessLevel.OWNER);
  const given: EditGroupBody = body ?? {};
  const errors: FieldErrors = {};
  const avatar = avatarChange((given as { avatar?: unknown }).avatar, avatarFile, errors, true);
  const changes = settingColumns(given);
  if (given.name !== undefined) changes.name = given.name;
  let fullPaths: { from: string; to: string } | undefined;
  if (given.path !== undefined && given.path !== group.path) {
    if (await pathTaken(db, group.parent_id, given.path, group.id)) errors.path = ['has already been taken'];
    else if (group.parent_id === null && RESERVED_TOP_LEVEL.has(given.path.toLowerCase()))
      errors.path = [`${given.path} is a reserved name`];
    const to = group.full_path.slice(0, group.full_path.length - group.path.length) + given.path;
    changes.path = given.path;
    fullPaths = { from: group.full_path, to };
  }
  if (given.visibility !== undefined && given.visibility !== group.visibility) {
    const visibilityErrors = await visibilityBoundsErrors(context, group, given.visibility);
    if (visibilityErrors.length > 0) errors.visibility_level = visibilityErrors;
  }
  if (Object.keys(errors).length > 0) throw updateFailure(errors);
  if (avatar === 'remove') {
    changes.avatar = null;
    await removeAvatars(context, 'group', [group.id]);
  } else if (avatar) changes.avatar = await storeAvatar(context, 'group', group.id, avatar);
  await updateGroupRow(db, group.id, changes, fullPaths).catch((error: unknown) => {
    throw isUniqueViolation(error) ? updateFailure({ path: ['has already been taken'] }) : error;
  });
  return group.id;
}

/** GitLab's visibility validations of a group: not above its parent, not below its subgroups or projects. */
async function visibilityBoundsErrors(
  context: ServerContext,
  group: { id: number; parent_id: number | null },
  visibility: string,
): Promise<string[]> {
  const { db } = context;
  const errors: string[] = [];
  if (group.parent_id !== null) {
    errors.push(...parentVisibilityError(visibility, await visibilityOfGroup(db, group.parent_id)));
  }
  const rank = VISIBILITY_RANK[visibility] ?? 0;
  const below = await visibilitiesBelow(db, group.id);
  if (below.subgroups.some((other) => (VISIBILITY_RANK[other] ?? 0) > rank))
    errors.push(`${visibility} is not allowed since there are sub-groups with higher visibility.`);
  if (below.projects.some((other) => (VISIBILITY_RANK[other] ?? 0) > rank))
    errors.push(`${visibility} is not allowed since this group contains projects with higher visibility.`);
  return errors;
}
