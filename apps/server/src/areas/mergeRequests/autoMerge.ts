// Merging when the pipeline succeeds (GitLab's AutoMerge::MergeWhenPipelineSucceedsService#process, run from
// the pipeline's success): when the head pipeline of a merge request set to merge automatically succeeds, it
// is merged as the user who set it, with the parameters kept then. A merge that cannot be made (the source
// moved on, a conflict, the user may no longer merge) cancels the automatic merge and says why in
// `merge_error`. A pipeline that fails leaves it set: a retried pipeline that succeeds merges it.
// The pipeline's status change only queues a job (listeners must not do the work); the job merges.
import { AccessLevel, resolveProject } from '../../core/access/access.js';
import { type Caller, toCallerUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { ApiError } from '../../core/http/errors.js';
import { nowIso } from '../../core/store/database.js';
import { activeUsers } from '../issuables/index.js';
import { findHeadPipelineRecord, findPipelineStatus, onPipelineStatusChange } from '../pipelines/index.js';
import { mergeRequestWritten } from './events.js';
import { type MergeParams, mergeNow } from './merge.js';
import { mayMergeInto } from './service.js';
import { autoMergeCandidates, type MergeRequestRow, updateMergeRequestIn } from './store.js';

const AUTO_MERGE_JOB = 'mergeRequests.autoMerge';

export function registerAutoMerge(context: ServerContext): void {
  onPipelineStatusChange(context, async (pipelineId) => {
    const pipeline = await findPipelineStatus(context.db, pipelineId);
    if (pipeline?.status === 'success' && pipeline.tag === 0)
      await context.jobs.enqueue(AUTO_MERGE_JOB, { pipelineId });
  });
  context.jobs.register(AUTO_MERGE_JOB, async (payload) => {
    const { pipelineId } = payload as { pipelineId: number };
    await mergeAfterPipeline(context, pipelineId);
  });
}

async function mergeAfterPipeline(context: ServerContext, pipelineId: number): Promise<void> {
  const pipeline = await findPipelineStatus(context.db, pipelineId);
  if (pipeline?.status !== 'success' || pipeline.tag !== 0) return;
  for (const row of await autoMergeCandidates(context.db, pipeline.project_id, pipeline.ref, pipeline.sha)) {
    // Only the head pipeline decides: a newer one for the same commit may still be going.
    const head = await findHeadPipelineRecord(context.db, row.project_id, row.source_branch, pipeline.sha);
    if (head?.id !== pipeline.id) continue;
    try {
      await mergeAsItsMergeUser(context, row);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await abortAutoMerge(context, row, error.message);
    }
  }
}

/** The automatic merge given up, with GitLab's note ("aborted the automatic merge because …"). */
async function abortAutoMerge(context: ServerContext, row: MergeRequestRow, reason: string): Promise<void> {
  await context.db.transaction().execute(async (trx) => {
    const mergeRequest = await updateMergeRequestIn(trx, row.id, 'opened', {
      merge_when_pipeline_succeeds: 0,
      merge_params: null,
      merge_error: `The automatic merge failed: ${reason}`,
      updated_at: row.updated_at,
    });
    if (!mergeRequest) return;
    await mergeRequestWritten(context, trx, {
      action: 'update',
      mergeRequest,
      before: row,
      userId: row.merge_user_id ?? row.author_id,
      at: nowIso(),
      autoMerge: { action: 'aborted', reason },
    });
  });
}

async function mergeAsItsMergeUser(context: ServerContext, row: MergeRequestRow): Promise<void> {
  const [userRow] = row.merge_user_id === null ? [] : await activeUsers(context.db, [row.merge_user_id]);
  if (!userRow) throw new ApiError(401, { message: 'the user who set it may no longer merge' });
  const user = toCallerUser(userRow);
  const caller: Caller = { user, scopes: ['api'] };
  const access = await resolveProject(context.db, caller, String(row.project_id));
  if (
    access.accessLevel < AccessLevel.DEVELOPER ||
    !(await mayMergeInto(context, caller, access, row.target_branch))
  )
    throw new ApiError(401, { message: 'the user who set it may no longer merge' });
  const source = await repositoryOf(context, access.project).getBranch(row.source_branch);
  if (!source) throw new ApiError(405, { message: 'the source branch is gone' });
  const params = JSON.parse(row.merge_params ?? '{}') as MergeParams;
  await mergeNow(context, access, row, user, params, source.commit.id);
}
