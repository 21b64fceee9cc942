// Merging a merge request (GitLab v4's `PUT /projects/:id/merge_requests/:merge_request_iid/merge`,
// MergeRequests::MergeService and FfMergeService, PostMergeService, DeleteSourceBranchWorker): a real merge
// into the target branch (core/git/merges.ts), then the merged state, the system note, the to-dos, the push
// and merge request events and, if asked, the source branch's deletion.
//
// The refusals come in GitLab's order: 404 (cannot read it), 401 (may not merge into the target branch),
// 405 (not mergeable in its state), 406 (conflicts, or no fast-forward where the method needs one), 409
// (`sha` is not the source's head). Two merges of one merge request at once: the state moves from `opened`
// to `locked` by compare-and-swap in the database, so one merges and the other finds it locked (405), as
// GitLab's merge lock answers.

import type { ProjectAccess } from '../../core/access/access.js';
import { projectFullPath } from '../../core/access/access.js';
import { type Caller, type CallerUser, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import {
  checkMerge,
  type MergeFailureReason,
  type MergeResult,
  mergeIntoBranch,
} from '../../core/git/merges.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { ApiError, unauthorized } from '../../core/http/errors.js';
import type { RequestBody } from '../../core/http/types.js';
import { nowIso } from '../../core/store/database.js';
import { loadProtectionRules, matchingRules } from '../protectedBranches/index.js';
import { mergeRequestEvent, mergeRequestWritten } from './events.js';
import { isDraftTitle, type MergeRequest } from './present.js';
import { mayMergeInto, presentFullMergeRequest } from './service.js';
import { lockForMerge, type MergeRequestRow, unlockAfterFailedMerge, updateMergeRequest } from './store.js';
import { makeMergeRequestTodos } from './todo.js';
import { mergeMethodOf, mergeRequestForWrite } from './writes.js';

type MergeRequestBody = RequestBody<'mergeProjectMergeRequest'>;

const notAllowed = () => new ApiError(405, { message: '405 Method Not Allowed' });
const cannotBeMerged = () => new ApiError(406, { message: 'Branch cannot be merged' });

/** The answer to a merge the repository refused. */
function refusal(reason: MergeFailureReason): ApiError {
  // Already in the target, or the target gone: not mergeable in its state (GitLab's broken?/has_no_commits?).
  if (reason === 'nothing_to_merge' || reason === 'target_missing') return notAllowed();
  return cannotBeMerged();
}

/** GitLab's default merge commit message (MergeRequest#default_merge_commit_message). */
export function defaultMergeCommitMessage(row: MergeRequestRow, fullPath: string): string {
  return [
    `Merge branch '${row.source_branch}' into '${row.target_branch}'`,
    row.title,
    `See merge request ${fullPath}!${row.iid}`,
  ].join('\n\n');
}

export async function mergeProjectMergeRequest(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
  body: MergeRequestBody | undefined,
  origin: string,
): Promise<MergeRequest> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const given = body ?? {};
  const { access, row } = await mergeRequestForWrite(context, caller, idOrPath, iid);
  if (!(await mayMergeInto(context, caller, access, row.target_branch))) throw unauthorized();
  const repo = repositoryOf(context, access.project);
  const source = row.state === 'opened' ? await repo.getBranch(row.source_branch) : null;
  if (row.state !== 'opened' || isDraftTitle(row.title) || !source) throw notAllowed();
  const sourceHead = source.commit.id;
  const method = mergeMethodOf(access.project);

  if (!(await lockForMerge(context.db, row.id))) throw notAllowed();
  let merged: MergeResult;
  try {
    if (given.sha !== undefined && given.sha !== null && given.sha !== sourceHead) {
      // GitLab checks mergeability (405, 406) before the SHA (409).
      const check = await checkMerge(repo, row.target_branch, sourceHead, method);
      if (!check.ok) throw refusal(check.reason);
      throw new ApiError(409, { message: `SHA does not match HEAD of source branch: ${sourceHead}` });
    }
    const squash = given.squash ?? row.squash === 1;
    merged = await mergeIntoBranch(repo, {
      targetBranch: row.target_branch,
      sourceCommit: sourceHead,
      method,
      message: given.merge_commit_message ?? defaultMergeCommitMessage(row, projectFullPath(access)),
      squashMessage: squash ? (given.squash_commit_message ?? row.title) : null,
      userName: user.name,
      userEmail: user.email,
    });
    if (!merged.ok) throw refusal(merged.reason);
  } catch (error) {
    await unlockAfterFailedMerge(context.db, row.id);
    throw error;
  }

  const shouldRemove = given.should_remove_source_branch ?? null;
  const at = nowIso();
  const mergedRow = await context.db.transaction().execute(async (trx) => {
    const mergeRequest = await updateMergeRequest(trx, row.id, {
      state: 'merged',
      merged_by_id: user.id,
      merged_at: at,
      merge_commit_sha: merged.after,
      squash_commit_sha: merged.squashCommit,
      squash: merged.squashCommit !== null ? 1 : row.squash,
      sha: sourceHead,
      merge_status: 'can_be_merged',
      should_remove_source_branch: shouldRemove === null ? null : shouldRemove ? 1 : 0,
      updated_at: at,
    });
    await makeMergeRequestTodos(trx, {
      project: access.project,
      mergeRequest,
      authorId: user.id,
      assigneesBefore: [],
      assigneesAfter: [],
      descriptionBefore: mergeRequest.description,
      resolved: true,
    });
    await mergeRequestWritten(context, trx, {
      action: 'merge',
      mergeRequest,
      before: row,
      userId: user.id,
      at,
    });
    return mergeRequest;
  });

  await context.repositoryEvents.changed(context.db, access.project.id, [
    { ref: `refs/heads/${row.target_branch}`, before: merged.before, after: merged.after, userId: user.id },
  ]);
  if (shouldRemove ?? row.force_remove_source_branch === 1)
    await removeSourceBranch(context, access, user, row.source_branch, sourceHead);
  await mergeRequestEvent(context, {
    action: 'merge',
    mergeRequest: mergedRow,
    before: row,
    userId: user.id,
    at,
  });
  return presentFullMergeRequest(context, caller, access, mergedRow, origin);
}

/**
 * Deletes the merged source branch (GitLab's DeleteSourceBranchWorker through DeleteBranchService), unless it
 * is the default branch or protected, or moved on since the merge (its new commits are kept).
 */
async function removeSourceBranch(
  context: ServerContext,
  access: ProjectAccess,
  user: CallerUser,
  branch: string,
  mergedHead: string,
): Promise<void> {
  if (branch === access.project.default_branch) return;
  if (matchingRules(await loadProtectionRules(context.db, access.project.id), branch).length > 0) return;
  const deleted = await repositoryOf(context, access.project).deleteBranch(branch, mergedHead);
  if (!deleted.ok) return;
  await context.repositoryEvents.changed(context.db, access.project.id, [
    { ref: `refs/heads/${branch}`, before: mergedHead, after: ZERO_SHA, userId: user.id },
  ]);
}
