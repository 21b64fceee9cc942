// Making, changing and deleting merge requests (GitLab v4's `POST`, `PUT` and `DELETE
// /projects/:id/merge_requests`, MergeRequests::CreateService and UpdateService, Issuable::DestroyService,
// the MergeRequest model's validate_branches and the merge request policies; owners delete them).
// Developers and above open them (create_merge_request_from needs push access); their author, their
// assignees and Developers and above change them (update_merge_request). Labels and assignees
// are merge request metadata: only Developers and above set them (admin_merge_request), other callers'
// values are dropped (IssuableBaseService#filter_params).

import {
  AccessLevel,
  type ProjectAccess,
  type ProjectRow,
  resolveProject,
} from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { ApiError, forbidden, notFound } from '../../core/http/errors.js';
import type { RequestBody } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { multipleMergeRequestAssignees } from '../features/index.js';
import {
  assignableUsers,
  labelNames,
  replaceLabels,
  replaceUsers,
  requestedAssignees,
  updatedLabels,
  usersOf,
} from '../issuables/index.js';
import { nextInternalId } from '../issues/index.js';
import {
  CLOSED_ABORTS_AUTO_MERGE,
  type MergeRequestAction,
  mergeRequestEvent,
  mergeRequestWritten,
} from './events.js';
import { diffColumns, mergeStatusOf } from './mergeability.js';
import type { MergeRequest } from './present.js';
import { presentFullMergeRequest } from './service.js';
import {
  deleteMergeRequestRow,
  findMergeRequest,
  findOpenDuplicate,
  insertMergeRequest,
  type MergeRequestChanges,
  type MergeRequestRow,
  NO_AUTO_MERGE,
  updateMergeRequest,
} from './store.js';
import { makeMergeRequestTodos } from './todo.js';

type CreateRequest = RequestBody<'createProjectMergeRequest'>;
type UpdateRequest = RequestBody<'updateProjectMergeRequest'>;

/** The parameters of which at least one must be given to an update (GitLab's at_least_one_of). */
const UPDATE_FIELDS = [
  'assignee_id',
  'assignee_ids',
  'description',
  'labels',
  'add_labels',
  'remove_labels',
  'remove_source_branch',
  'state_event',
  'target_branch',
  'title',
  'discussion_locked',
  'squash',
] as const;

/** GitLab's validate_branches errors (409, as a list). */
const SAME_BRANCHES = "You can't use same project/branch for source and target";
const duplicateOf = (iid: number) =>
  new ApiError(409, {
    message: [`Another open merge request already exists for this source branch: !${iid}`],
  });

const mergeRequestNotFound = () => notFound('Merge Request');

/** A title that is not only blanks (GitLab's presence validation, in its `message` shape). */
function checkTitle(title: string): string {
  if (title.trim() === '') throw new ApiError(400, { message: { title: ["can't be blank"] } });
  return title;
}

/** Whether the caller may read the project's merge requests (else 404 for a write, as GitLab finds them). */
function readsMergeRequests(access: ProjectAccess): boolean {
  return (
    access.project.merge_requests_enabled === 1 &&
    (access.project.visibility !== 'private' || access.accessLevel >= AccessLevel.REPORTER)
  );
}

/** The merge request a write acts on: 404 for one the caller may not read. */
export async function mergeRequestForWrite(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
): Promise<{ access: ProjectAccess; row: MergeRequestRow }> {
  const access = await resolveProject(context.db, caller, idOrPath);
  const row =
    readsMergeRequests(access) && Number.isSafeInteger(iid)
      ? await findMergeRequest(context.db, access.project.id, iid)
      : undefined;
  if (!row) throw mergeRequestNotFound();
  return { access, row };
}

/** The branch's head, or the 400 GitLab's BuildService words for a missing branch. */
async function branchHead(context: ServerContext, project: ProjectRow, kind: string, name: string) {
  const branch = await repositoryOf(context, project).getBranch(name);
  if (!branch) throw new ApiError(400, { message: [`${kind} branch "${name}" does not exist`] });
  return branch.commit.id;
}

async function assigneeIdsOf(db: Db, row: MergeRequestRow): Promise<number[]> {
  const assignees = await usersOf(db, 'MergeRequest', 'assignee', [row.id]);
  return (assignees.get(row.id) ?? []).map((user) => user.id);
}

/* Create ----------------------------------------------------------------------------------------- */

export async function createProjectMergeRequest(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  body: CreateRequest,
  origin: string,
): Promise<MergeRequest> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const access = await resolveProject(context.db, caller, idOrPath);
  const { project } = access;
  if (
    project.merge_requests_enabled !== 1 ||
    project.archived === 1 ||
    access.accessLevel < AccessLevel.DEVELOPER
  )
    throw forbidden();
  // Merge requests across forks are not modelled: only this project may be the target.
  if (
    body.target_project_id !== undefined &&
    body.target_project_id !== null &&
    body.target_project_id !== project.id
  )
    throw notFound('Project');
  const title = checkTitle(body.title);
  const labels = body.labels !== undefined && body.labels !== null ? labelNames('labels', body.labels) : [];
  const wantedAssignees = requestedAssignees(body);
  const assignees = wantedAssignees
    ? await assignableUsers(context.db, project, wantedAssignees, multipleMergeRequestAssignees(context))
    : [];
  if (body.source_branch === body.target_branch) throw new ApiError(409, { message: [SAME_BRANCHES] });
  const sha = await branchHead(context, project, 'Source', body.source_branch);
  await branchHead(context, project, 'Target', body.target_branch);
  const mergeStatus = await mergeStatusOf(context, project, body.target_branch, sha);
  const diff = await diffColumns(context, project, body.target_branch, sha);

  const row = await context.db.transaction().execute(async (trx) => {
    const duplicate = await findOpenDuplicate(trx, project.id, body.source_branch, body.target_branch, null);
    if (duplicate) throw duplicateOf(duplicate.iid);
    const mergeRequest = await insertMergeRequest(trx, {
      projectId: project.id,
      iid: await nextInternalId(trx, project.id, 'merge_requests'),
      title,
      description: body.description ?? null,
      authorId: user.id,
      sourceBranch: body.source_branch,
      targetBranch: body.target_branch,
      sha,
      mergeStatus,
      diff,
      squash: body.squash === true,
      forceRemoveSourceBranch: body.remove_source_branch === true,
    });
    await replaceLabels(trx, 'MergeRequest', mergeRequest.id, labels);
    await replaceUsers(trx, 'MergeRequest', mergeRequest.id, 'assignee', assignees);
    await makeMergeRequestTodos(trx, {
      project,
      mergeRequest,
      authorId: user.id,
      assigneesBefore: [],
      assigneesAfter: assignees,
      descriptionBefore: null,
      resolved: false,
    });
    const change = {
      action: 'open' as const,
      mergeRequest,
      before: null,
      userId: user.id,
      at: mergeRequest.created_at,
    };
    await mergeRequestWritten(context, trx, change);
    return mergeRequest;
  });
  await mergeRequestEvent(context, {
    action: 'open',
    mergeRequest: row,
    before: null,
    userId: user.id,
    at: row.created_at,
  });
  return presentFullMergeRequest(context, caller, access, row, origin);
}

/* Update ----------------------------------------------------------------------------------------- */

/** Whether the caller may change it: Developers and above, its author and its assignees. */
function mayUpdate(
  caller: Caller,
  access: ProjectAccess,
  row: MergeRequestRow,
  assigneeIds: number[],
): boolean {
  if (access.project.archived === 1) return false;
  if (access.accessLevel >= AccessLevel.DEVELOPER) return true;
  const userId = caller.user?.id;
  return userId !== undefined && (row.author_id === userId || assigneeIds.includes(userId));
}

export async function updateProjectMergeRequest(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
  body: UpdateRequest | undefined,
  origin: string,
): Promise<MergeRequest> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const given = body ?? {};
  // Grape checks its parameters before the endpoint looks anything up: 400 before 404 and 403.
  if (!UPDATE_FIELDS.some((field) => given[field] !== undefined && given[field] !== null))
    throw new ApiError(400, {
      error: `${UPDATE_FIELDS.join(', ')} are missing, at least one parameter must be provided`,
    });
  const { access, row } = await mergeRequestForWrite(context, caller, idOrPath, iid);
  const { project } = access;
  const assigneeIds = await assigneeIdsOf(context.db, row);
  if (!mayUpdate(caller, access, row, assigneeIds)) throw forbidden();
  const setsMetadata = access.accessLevel >= AccessLevel.DEVELOPER;

  const changes: MergeRequestChanges = {};
  if (given.title !== undefined && given.title !== null) changes.title = checkTitle(given.title);
  if (given.description !== undefined) changes.description = given.description;
  if (given.remove_source_branch !== undefined && given.remove_source_branch !== null)
    changes.force_remove_source_branch = given.remove_source_branch ? 1 : 0;
  if (given.squash !== undefined && given.squash !== null) changes.squash = given.squash ? 1 : 0;
  if (setsMetadata && given.discussion_locked !== undefined && given.discussion_locked !== null)
    changes.discussion_locked = given.discussion_locked ? 1 : 0;
  const open = row.state === 'opened';
  const newTarget = given.target_branch ?? undefined;
  // A merged or closed merge request keeps its branches (GitLab ignores the change once it is closed or merged).
  if (newTarget !== undefined && newTarget !== row.target_branch && row.state !== 'merged') {
    if (newTarget === row.source_branch) throw new ApiError(409, { message: [SAME_BRANCHES] });
    await branchHead(context, project, 'Target', newTarget);
    changes.target_branch = newTarget;
  }
  let action: MergeRequestAction = 'update';
  if (given.state_event === 'close' && open) {
    action = 'close';
    Object.assign(changes, { state: 'closed', closed_at: new Date().toISOString(), closed_by_id: user.id });
    // Closing aborts its automatic merge (GitLab's CloseService#abort_auto_merge).
    if (row.merge_when_pipeline_succeeds === 1) Object.assign(changes, NO_AUTO_MERGE);
  }
  if (given.state_event === 'reopen' && row.state === 'closed') {
    // GitLab's `reopenable?`: the source branch must still exist; otherwise the state stays.
    const source = await repositoryOf(context, project).getBranch(row.source_branch);
    if (source) {
      action = 'reopen';
      Object.assign(changes, { state: 'opened', closed_at: null, closed_by_id: null, sha: source.commit.id });
    }
  }
  const stillOpen = (changes.state ?? row.state) === 'opened';
  const targetBranch = changes.target_branch ?? row.target_branch;
  if (stillOpen && (changes.target_branch !== undefined || action === 'reopen')) {
    const sha = changes.sha ?? row.sha;
    if (sha) {
      changes.merge_status = await mergeStatusOf(context, project, targetBranch, sha);
      Object.assign(changes, await diffColumns(context, project, targetBranch, sha));
    }
  }
  const labels = setsMetadata ? await updatedLabels(context.db, 'MergeRequest', row.id, given) : undefined;
  const wantedAssignees = setsMetadata ? requestedAssignees(given) : undefined;
  const assignees = wantedAssignees
    ? await assignableUsers(context.db, project, wantedAssignees, multipleMergeRequestAssignees(context))
    : undefined;

  const updated = await context.db.transaction().execute(async (trx) => {
    if (stillOpen && (changes.target_branch !== undefined || action === 'reopen')) {
      const duplicate = await findOpenDuplicate(trx, project.id, row.source_branch, targetBranch, row.id);
      if (duplicate) throw duplicateOf(duplicate.iid);
    }
    const mergeRequest = await updateMergeRequest(trx, row.id, changes);
    if (labels !== undefined) await replaceLabels(trx, 'MergeRequest', row.id, labels);
    if (assignees !== undefined) await replaceUsers(trx, 'MergeRequest', row.id, 'assignee', assignees);
    await makeMergeRequestTodos(trx, {
      project,
      mergeRequest,
      authorId: user.id,
      assigneesBefore: assigneeIds,
      assigneesAfter: assignees ?? assigneeIds,
      descriptionBefore: row.description,
      resolved: action === 'close',
    });
    await mergeRequestWritten(context, trx, {
      action,
      mergeRequest,
      before: row,
      userId: user.id,
      at: mergeRequest.updated_at,
      autoMerge:
        action === 'close' && row.merge_when_pipeline_succeeds === 1 ? CLOSED_ABORTS_AUTO_MERGE : undefined,
    });
    return mergeRequest;
  });
  await mergeRequestEvent(context, {
    action,
    mergeRequest: updated,
    before: row,
    userId: user.id,
    at: updated.updated_at,
  });
  return presentFullMergeRequest(context, caller, access, updated, origin);
}

/**
 * Deletes a merge request (GitLab's DELETE, `destroy_merge_request`: the project's owners and
 * administrators; 403 for others who can see it) with what hangs on it.
 */
export async function deleteProjectMergeRequest(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
): Promise<void> {
  requireUser(caller);
  requireScope(caller, 'api');
  const { access, row } = await mergeRequestForWrite(context, caller, idOrPath, iid);
  if (access.accessLevel < AccessLevel.OWNER) throw forbidden();
  const deleted = await context.db.transaction().execute((trx) => deleteMergeRequestRow(trx, row.id));
  if (!deleted) throw mergeRequestNotFound();
}
