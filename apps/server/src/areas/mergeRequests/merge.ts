// Merging a merge request (GitLab v4's `PUT /projects/:id/merge_requests/:merge_request_iid/merge`,
// MergeRequests::MergeService and FfMergeService, PostMergeService, DeleteSourceBranchWorker): a real merge
// into the target branch (core/git/merges.ts), then the merged state, the system note, the to-dos, the push
// and merge request events and, if asked, the source branch's deletion.
//
// The refusals come in GitLab's order: 404 (cannot read it), 401 (may not merge into the target branch),
// 405 (not mergeable in its state), 406 (conflicts, or no fast-forward where the method needs one), 409
// (`sha` is not the source's head). Two merges of one merge request at once: the state moves from `opened`
// to `locked` by compare-and-swap in the database, so one merges and the other finds it locked (405), as
// GitLab's merge lock answers. A lock left by a merge that died is released by the next attempt and at
// start (locks.ts). The pipeline rules decide between merging now, setting the
// merge for when the head pipeline succeeds (autoMerge.ts merges it then) and 405.

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
import { findHeadPipelineRecord } from '../pipelines/index.js';
import { loadProtectionRules, matchingRules } from '../protectedBranches/index.js';
import { mergeRequestWritten } from './events.js';
import { releaseStaleLock } from './locks.js';
import { diffColumns, mergeMethodOf } from './mergeability.js';
import { isDraftTitle, type MergeRequest } from './present.js';
import { mayMergeInto, presentFullMergeRequest } from './service.js';
import { writeMergeRequestState } from './stateWrite.js';
import {
  findMergeRequest,
  lockForMerge,
  type MergeRequestChanges,
  type MergeRequestRow,
  NO_AUTO_MERGE,
  unlockAfterFailedMerge,
  updateMergeRequestIn,
} from './store.js';
import { mergeRequestForWrite } from './writes.js';

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

/** How to merge: the API's parameters, or those an automatic merge kept (GitLab's merge_params). */
export interface MergeParams {
  sha?: string | null;
  squash?: boolean | null;
  should_remove_source_branch?: boolean | null;
  merge_commit_message?: string | null;
  squash_commit_message?: string | null;
}

/** The statuses of a pipeline still going (GitLab's Ci::Pipeline#active?). */
const ACTIVE_PIPELINE = ['created', 'pending', 'running'];

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
  const found = await mergeRequestForWrite(context, caller, idOrPath, iid);
  const { access } = found;
  if (!(await mayMergeInto(context, caller, access, found.row.target_branch))) throw unauthorized();
  const row = await releaseStaleLock(context, access.project, found.row);
  const repo = repositoryOf(context, access.project);
  const source = row.state === 'opened' ? await repo.getBranch(row.source_branch) : null;
  if (row.state !== 'opened' || isDraftTitle(row.title) || !source) throw notAllowed();
  const sourceHead = source.commit.id;

  // The pipeline rules of lib/api/merge_requests.rb: with `merge_when_pipeline_succeeds` (or `auto_merge`)
  // a head pipeline still going sets the automatic merge and one that succeeded merges now; without it the
  // project's `only_allow_merge_if_pipeline_succeeds` needs a head pipeline that succeeded, or was skipped
  // where the project's `allow_merge_on_skipped_pipeline` says so (MergeRequest#mergeable_ci_state?). Else 405.
  const wantsAutoMerge = given.merge_when_pipeline_succeeds === true || given.auto_merge === true;
  const pipeline = await findHeadPipelineRecord(context.db, access.project.id, row.source_branch, sourceHead);
  const succeeded = pipeline?.status === 'success';
  const automatically = wantsAutoMerge && pipeline !== undefined && ACTIVE_PIPELINE.includes(pipeline.status);
  const skippedAllowed =
    pipeline?.status === 'skipped' && access.project.allow_merge_on_skipped_pipeline === 1;
  const immediately = wantsAutoMerge
    ? succeeded
    : access.project.only_allow_merge_if_pipeline_succeeds !== 1 || succeeded || skippedAllowed;
  if (!automatically && !immediately) throw notAllowed();

  const written = automatically
    ? await setAutoMerge(context, access, row, user, given, sourceHead)
    : await mergeNow(context, access, row, user, given, sourceHead);
  return presentFullMergeRequest(context, caller, access, written, origin);
}

/** Refuses what a merge of `sourceHead` now would refuse: 405 or 406, then 409 for a stale `sha`. */
async function checkBeforeMerge(
  context: ServerContext,
  access: ProjectAccess,
  row: MergeRequestRow,
  params: MergeParams,
  sourceHead: string,
): Promise<void> {
  if (params.sha === undefined || params.sha === null || params.sha === sourceHead) return;
  // GitLab checks mergeability (405, 406) before the SHA (409).
  const repo = repositoryOf(context, access.project);
  const check = await checkMerge(repo, row.target_branch, sourceHead, mergeMethodOf(access.project));
  if (!check.ok) throw refusal(check.reason);
  throw new ApiError(409, { message: `SHA does not match HEAD of source branch: ${sourceHead}` });
}

/**
 * Sets the merge request to merge when its head pipeline succeeds (GitLab's AutoMerge
 * MergeWhenPipelineSucceedsService#execute): who asked and how are kept for the merge (autoMerge.ts).
 */
async function setAutoMerge(
  context: ServerContext,
  access: ProjectAccess,
  row: MergeRequestRow,
  user: CallerUser,
  params: MergeParams,
  sourceHead: string,
): Promise<MergeRequestRow> {
  await checkBeforeMerge(context, access, row, params, sourceHead);
  const check = await checkMerge(
    repositoryOf(context, access.project),
    row.target_branch,
    sourceHead,
    mergeMethodOf(access.project),
  );
  if (!check.ok) throw refusal(check.reason);
  // Set again, the parameters given now replace those kept; those not given stay (GitLab's
  // AutoMerge::BaseService#update merges the compacted parameters into merge_params).
  const previous: MergeParams =
    row.merge_when_pipeline_succeeds === 1 && row.merge_params !== null
      ? (JSON.parse(row.merge_params) as MergeParams)
      : {};
  const kept: MergeParams = {
    sha: sourceHead,
    squash: params.squash ?? previous.squash ?? null,
    should_remove_source_branch:
      params.should_remove_source_branch ?? previous.should_remove_source_branch ?? null,
    merge_commit_message: params.merge_commit_message ?? previous.merge_commit_message ?? null,
    squash_commit_message: params.squash_commit_message ?? previous.squash_commit_message ?? null,
  };
  const written = await writeMergeRequestState(
    context,
    access.project,
    row,
    'opened',
    {
      merge_when_pipeline_succeeds: 1,
      merge_user_id: user.id,
      merge_params: JSON.stringify(kept),
      merge_error: null,
    },
    {
      action: 'update',
      userId: user.id,
      // Noted when it is set, not when a second request sets it again (saved_change_to_auto_merge_enabled?).
      autoMerge: row.merge_when_pipeline_succeeds === 1 ? undefined : { action: 'enabled', sha: sourceHead },
    },
  );
  if (!written) throw notAllowed();
  return written;
}

/**
 * Merges an open merge request now (GitLab's MergeService, PostMergeService): the lock, the git merge, the
 * merged state with its to-dos and events, and the source branch's deletion when asked. Throws the API's
 * refusals (405, 406, 409).
 */
export async function mergeNow(
  context: ServerContext,
  access: ProjectAccess,
  row: MergeRequestRow,
  user: CallerUser,
  params: MergeParams,
  sourceHead: string,
): Promise<MergeRequestRow> {
  const repo = repositoryOf(context, access.project);
  const method = mergeMethodOf(access.project);
  const diff = await diffColumns(context, access.project, row.target_branch, sourceHead);

  if (!(await lockForMerge(context.db, row.id, user.id))) throw notAllowed();
  let merged: MergeResult;
  try {
    await checkBeforeMerge(context, access, row, params, sourceHead);
    const squash = params.squash ?? row.squash === 1;
    merged = await mergeIntoBranch(repo, {
      targetBranch: row.target_branch,
      sourceCommit: sourceHead,
      method,
      message: params.merge_commit_message ?? defaultMergeCommitMessage(row, projectFullPath(access)),
      squashMessage: squash ? (params.squash_commit_message ?? row.title) : null,
      userName: user.name,
      userEmail: user.email,
    });
    if (!merged.ok) throw refusal(merged.reason);
  } catch (error) {
    await unlockAfterFailedMerge(context.db, row.id, { merge_user_id: row.merge_user_id });
    throw error;
  }

  const shouldRemove = params.should_remove_source_branch ?? null;
  const at = nowIso();
  const changes: MergeRequestChanges = {
    state: 'merged',
    merged_by_id: user.id,
    merged_at: at,
    // GitLab keeps a merge commit only: a fast-forward makes none (MergeService#commit).
    merge_commit_sha: method === 'ff' ? null : merged.after,
    squash_commit_sha: merged.squashCommit,
    squash: merged.squashCommit !== null ? 1 : row.squash,
    sha: sourceHead,
    ...diff,
    merge_status: 'can_be_merged',
    merge_locked_at: null,
    merge_when_pipeline_succeeds: 0,
    merge_params: null,
    merge_error: null,
    should_remove_source_branch: shouldRemove === null ? null : shouldRemove ? 1 : 0,
    updated_at: at,
  };
  const { target_branch: targetBranch, source_branch: sourceBranch } = row;
  const mergedRow = await writeMergeRequestState(context, access.project, row, 'locked', changes, {
    action: 'merge',
    userId: user.id,
    // The push to the target branch and the source branch's removal come before the merge event, as the
    // hooks of a merge hear of them.
    afterCommit: async () => {
      await context.repositoryEvents.changed(context.db, access.project.id, [
        { ref: `refs/heads/${targetBranch}`, before: merged.before, after: merged.after, userId: user.id },
      ]);
      if (shouldRemove ?? row.force_remove_source_branch === 1)
        await removeSourceBranch(context, access, user, sourceBranch, sourceHead);
    },
  });
  // Only a release of this lock as stale (locks.ts) moves the state meanwhile: it found the merge in git and
  // wrote it merged.
  return mergedRow ?? (await findMergeRequest(context.db, row.project_id, row.iid)) ?? row;
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

/**
 * Cancels the automatic merge (GitLab's POST cancel_merge_when_pipeline_succeeds and AutoMerge cancel): by
 * whoever may merge into the target branch or the author (`can_cancel_auto_merge?`, 401 otherwise), 405
 * when none is set; GitLab's "canceled the automatic merge" note.
 */
export async function cancelAutoMerge(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
  origin: string,
): Promise<MergeRequest> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const { access, row } = await mergeRequestForWrite(context, caller, idOrPath, iid);
  if (row.author_id !== user.id && !(await mayMergeInto(context, caller, access, row.target_branch)))
    throw unauthorized();
  if (row.merge_when_pipeline_succeeds !== 1) throw notAllowed();
  const written = await context.db.transaction().execute(async (trx) => {
    const mergeRequest = await updateMergeRequestIn(trx, row.id, 'opened', NO_AUTO_MERGE);
    if (!mergeRequest) throw notAllowed();
    await mergeRequestWritten(context, trx, {
      action: 'update',
      mergeRequest,
      before: row,
      userId: user.id,
      at: mergeRequest.updated_at,
      autoMerge: { action: 'canceled' },
    });
    return mergeRequest;
  });
  return presentFullMergeRequest(context, caller, access, written, origin);
}
