// Create, read and edit one project (GitLab v4's `POST /projects`, `GET /projects/:id`, `PUT /projects/:id`;
// lib/api/projects.rb, Projects::CreateService and Projects::UpdateService, ProjectPolicy).
//
// A new project gets a row and a real bare repository (named after its ID, like every project's), with a
// first commit of README.md on request. The row is written first, in one transaction; should git then fail,
// the project is removed again, so nothing of a failed creation remains.
import {
  AccessLevel,
  type GroupRow,
  type ProjectAccess,
  type ProjectRow,
  resolveProject,
  resolveProjectForSignedIn,
} from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import {
  cappedVisibility,
  isValidProjectPath,
  namespaceForNewProject,
  PROJECT_PATH_RULE,
  type ProjectVisibility,
  visibilityNotAllowed,
} from '../../core/access/newProjects.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { initBareRepository, isValidBranchName } from '../../core/git/repository.js';
import { ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { ApiError, badRequest, forbidden, invalidParameter } from '../../core/http/errors.js';
import type { RequestBody } from '../../core/http/types.js';
import { isUniqueViolation, nowIso } from '../../core/store/database.js';
import {
  type AvatarChange,
  avatarChange,
  removeAvatars,
  storeAvatar,
  type UploadedImage,
} from '../avatars/index.js';
import { purgeProject } from './deletion.js';
import { licenseFields } from './license.js';
import {
  type ProjectFull,
  type ProjectSummary,
  presentFullProjects,
  presentProjectSummaries,
} from './present.js';
import { type ProjectChanges, settingsChanges } from './settings.js';
import {
  findProjectById,
  groupLevelsOf,
  insertProject,
  takenInNamespace,
  updateProjectSettings,
  userIdByUsername,
} from './store.js';

export type CreateProjectRequest = RequestBody<'createProject'>;
export type EditProjectRequest = RequestBody<'editProject'>;

/** GitLab's default branch of a new repository (the instance's `default_branch_name`). */
export const DEFAULT_BRANCH = 'main';

const NAME_RULE =
  "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, " +
  "digit, emoji, or '_'.";

/** GitLab's project name rule (Gitlab::Regex.project_name_regex). */
export function isValidProjectName(name: string): boolean {
  return /^[\p{L}\p{N}_\u{00A9}-\u{1F9FF}][\p{L}\p{N}\p{Pd}+_. \u{00A9}-\u{1F9FF}]*$/u.test(name);
}

/**
 * The path GitLab makes from a name when none is given (ActiveSupport's `parameterize`): lower case, every
 * run of characters other than ASCII letters, digits, `_` and `-` one `-`, no `-` at either end.
 */
export function pathFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A string property that was given (a JSON null or an absent property is not). */
const givenString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** GitLab's validation errors of a name and a path (either may be absent): both reported at once. */
function checkNameAndPath(name: string | undefined, path: string | undefined): void {
  const message: Record<string, string[]> = {};
  if (name !== undefined && (name.trim() === '' || !isValidProjectName(name))) message.name = [NAME_RULE];
  if (path !== undefined && !isValidProjectPath(path)) message.path = [PROJECT_PATH_RULE];
  if (Object.keys(message).length > 0) throw new ApiError(400, { message });
}

/** GitLab's validation answer for a name or path another project of the namespace has. */
function takenError(taken: { name: boolean; path: boolean }): ApiError {
  const message: Record<string, string[]> = {};
  if (taken.name) message.name = ['has already been taken'];
  if (taken.path) message.path = ['has already been taken'];
  return new ApiError(400, { message });
}

function checkVisibility(wanted: ProjectVisibility, namespace: GroupRow): void {
  if (cappedVisibility(wanted, namespace.visibility) !== wanted)
    throw visibilityNotAllowed(wanted, namespace);
}

/**
 * The avatar a write asks for (`avatar`: a file part, or an empty value that removes it on an update), with
 * GitLab's validation answer for a refused file.
 */
function checkedAvatar(given: unknown, file: UploadedImage | undefined, update: boolean): AvatarChange {
  const message: Record<string, string[]> = {};
  const change = avatarChange(given, file, message, update);
  if (Object.keys(message).length > 0) throw new ApiError(400, { message });
  return change;
}

/** The README of `initialize_with_readme`: the project's name as a heading, then its description. */
function readmeOf(name: string, description: string | null): Buffer {
  const text = description ? `# ${name}\n\n${description}\n` : `# ${name}\n`;
  return Buffer.from(text, 'utf8');
}

/** The user owning a personal namespace (its path is the username). */
async function ownerOfPersonalNamespace(
  context: ServerContext,
  namespace: GroupRow,
): Promise<number | undefined> {
  return userIdByUsername(context.db, namespace.full_path);
}

/** `POST /projects`: the new project's row (the routes present it). */
export async function createProject(
  context: ServerContext,
  caller: Caller,
  body: CreateProjectRequest,
  avatarFile?: UploadedImage,
): Promise<ProjectRow> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const { db } = context;
  const givenName = givenString(body.name);
  const givenPath = givenString(body.path);
  if (givenName === undefined && givenPath === undefined)
    throw new ApiError(400, { error: 'name, path are missing, at least one parameter must be provided' });
  const name = givenName ?? (givenPath as string);
  const path = givenPath ?? pathFromName(name);
  checkNameAndPath(name, path);
  const defaultBranch = givenString(body.default_branch) ?? DEFAULT_BRANCH;
  if (!(await isValidBranchName(defaultBranch))) throw invalidParameter('default_branch');
  const namespaceId = typeof body.namespace_id === 'number' ? body.namespace_id : undefined;
  const namespace = await namespaceForNewProject(context, caller, namespaceId);
  const visibility = (givenString(body.visibility) ?? 'private') as ProjectVisibility;
  checkVisibility(visibility, namespace);
  const settings = settingsChanges(body);
  const avatar = checkedAvatar((body as { avatar?: unknown }).avatar, avatarFile, false);

  // Who becomes a member: the owner of a personal namespace its owner (GitLab's add_owner); in a group, a
  // creator without a membership there (an administrator) its maintainer. Group members inherit.
  let member: { userId: number; level: number } | undefined;
  if (namespace.kind === 'user') {
    const ownerId = await ownerOfPersonalNamespace(context, namespace);
    if (ownerId !== undefined) member = { userId: ownerId, level: AccessLevel.OWNER };
  } else {
    const groupLevel = (await groupLevelsOf(db, user.id, [namespace.id])).get(namespace.id) ?? 0;
    if (groupLevel < AccessLevel.MAINTAINER) member = { userId: user.id, level: AccessLevel.MAINTAINER };
  }

  const now = nowIso();
  let project: ProjectRow;
  try {
    project = await db.transaction().execute(async (trx) => {
      const taken = await takenInNamespace(trx, namespace.id, { name, path });
      if (taken.name || taken.path) throw takenError(taken);
      return insertProject(
        trx,
        {
          ...settings,
          name,
          path,
          namespace_id: namespace.id,
          visibility,
          description: settings.description ?? null,
          default_branch: defaultBranch,
          archived: 0,
          repository_storage: context.storages.names[0] ?? 'default',
          creator_id: user.id,
          created_at: now,
          last_activity_at: now,
          repository_generation: 0,
        },
        member,
      );
    });
  } catch (error) {
    // Two creations racing for one path: the unique (namespace, path) constraint decides.
    if (isUniqueViolation(error)) throw takenError({ name: false, path: true });
    throw error;
  }

  try {
    const repository = await initBareRepository(
      context.storages.pathFor(project.repository_storage, project.id),
      defaultBranch,
    );
    if (body.initialize_with_readme === true) {
      const commit = await repository.commitFileChange({
        branch: defaultBranch,
        action: 'create',
        filePath: 'README.md',
        content: readmeOf(name, project.description),
        authorName: user.name,
        authorEmail: user.email,
        committerName: user.name,
        committerEmail: user.email,
        message: 'Initial commit',
      });
      if (!commit.ok) throw new Error(`the first commit failed: ${commit.message}`);
      await context.repositoryEvents.changed(db, project.id, [
        { ref: `refs/heads/${defaultBranch}`, before: ZERO_SHA, after: commit.commitId, userId: user.id },
      ]);
    }
    if (avatar !== undefined && avatar !== 'remove') {
      const filename = await storeAvatar(context, 'project', project.id, avatar);
      await updateProjectSettings(db, project.id, { avatar: filename }, false);
    }
  } catch (error) {
    await purgeProject(context, project.id);
    throw error;
  }
  const created = await findProjectById(db, project.id);
  if (!created) throw new Error(`project ${project.id} vanished after its creation`);
  return created;
}

/** What `GET /projects/:id` adds on request. */
export interface ProjectReadOptions {
  statistics: boolean;
  license: boolean;
  withCustomAttributes: boolean;
}

/**
 * `GET /projects/:id`: the full form with the caller's permissions for signed-in callers, the summary form
 * for anonymous ones (GitLab: ProjectWithAccess and BasicProjectDetails). Statistics need reporter access
 * (GitLab's `:read_statistics`), custom attributes an administrator; others' requests for them are ignored.
 */
export async function readProject(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  options: ProjectReadOptions,
  origin: string,
): Promise<ProjectFull | ProjectSummary> {
  const { project, accessLevel } = await resolveProject(context.db, caller, idOrPath);
  if (!caller.user) {
    const [summary] = await presentProjectSummaries(context, [project], { origin });
    if (!summary) throw new Error('presenting a project gave nothing');
    return summary;
  }
  const [full] = await presentFullProjects(context, caller, [project], {
    origin,
    statistics: options.statistics && accessLevel >= AccessLevel.REPORTER,
    customAttributes: options.withCustomAttributes && caller.user.isAdmin,
  });
  if (!full) throw new Error('presenting a project gave nothing');
  if (options.license) Object.assign(full, await licenseFields(context, project, full.web_url));
  return full;
}

/**
 * `PUT /projects/:id`. Maintainers edit (GitLab's `:admin_project`); a name, path or visibility needs the
 * owner or an administrator (`:rename_project`, `:change_visibility_level`). The repository is stored by
 * project ID, so a new path moves nothing on disk.
 */
export async function editProject(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  body: EditProjectRequest,
  avatarFile?: UploadedImage,
): Promise<ProjectAccess> {
  const { db } = context;
  const access = await resolveProjectForSignedIn(db, caller, idOrPath, 'api', AccessLevel.MAINTAINER);
  const { project, namespace } = access;
  const changes: ProjectChanges = settingsChanges(body);
  if (typeof body.ci_default_git_depth === 'number') changes.ci_default_git_depth = body.ci_default_git_depth;
  const name = givenString(body.name);
  const path = givenString(body.path);
  const visibility = givenString(body.visibility) as ProjectVisibility | undefined;
  const defaultBranch = givenString(body.default_branch);
  const avatar = checkedAvatar(body.avatar, avatarFile, true);
  if (
    avatar === undefined &&
    Object.keys(changes).length === 0 &&
    name === undefined &&
    path === undefined &&
    visibility === undefined &&
    defaultBranch === undefined
  )
    throw new ApiError(400, { error: 'at least one parameter must be provided' });

  if (
    (name !== undefined || path !== undefined || visibility !== undefined) &&
    access.accessLevel < AccessLevel.OWNER
  )
    throw forbidden();
  checkNameAndPath(name, path);
  if (name !== undefined) changes.name = name;
  if (path !== undefined) changes.path = path;
  if (visibility !== undefined) {
    checkVisibility(visibility, namespace);
    changes.visibility = visibility;
  }
  if (avatar === 'remove') changes.avatar = null;
  const repository = repositoryOf(context, project);
  const movesHead = defaultBranch !== undefined && defaultBranch !== project.default_branch;
  if (movesHead) {
    if (!(await repository.getBranch(defaultBranch)))
      throw badRequest(`Could not set the default branch. Branch '${defaultBranch}' does not exist.`);
    changes.default_branch = defaultBranch;
  }

  try {
    await db.transaction().execute(async (trx) => {
      const taken = await takenInNamespace(
        trx,
        project.namespace_id,
        {
          name: name !== undefined && name !== project.name ? name : undefined,
          path: path !== undefined && path !== project.path ? path : undefined,
        },
        project.id,
      );
      if (taken.name || taken.path) throw takenError(taken);
      // A new HEAD changes what the repository's cached reads (README, languages, empty) answer.
      await updateProjectSettings(trx, project.id, { ...changes, last_activity_at: nowIso() }, movesHead);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw takenError({ name: false, path: true });
    throw error;
  }
  // The files after the row's change: a refused change (a taken path) leaves the avatar as it was.
  if (avatar === 'remove') await removeAvatars(context, 'project', [project.id]);
  else if (avatar !== undefined) {
    const filename = await storeAvatar(context, 'project', project.id, avatar);
    await updateProjectSettings(db, project.id, { avatar: filename }, false);
  }
  if (movesHead && defaultBranch !== undefined) await repository.setDefaultBranch(defaultBranch);
  return resolveProject(db, caller, String(project.id));
}
