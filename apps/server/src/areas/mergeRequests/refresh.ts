// Merge requests follow their branches (GitLab's MergeRequests::RefreshService, run on every push): for each
// branch a change moved,
// - deleted: the open merge requests from it are closed (close_upon_missing_source_branch_ref);
// - moved, as a target: the open merge requests into it whose head commit the change brought are merged
//   (post_merge_manually_merged, the merge commit found on the branch), the others need their mergeability
//   checked again (`unchecked`);
// - moved, as a source: the open merge requests from it take the new head as `sha`, their diff is made again
//   (diff_refs, changes_count), their mergeability is `unchecked`, and an automatic merge set for an older
//   head is cancelled (abort_auto_merges).
// Runs in the request that moved the branch, after the repository changed, so that the next read sees it.
// The mergeability itself is checked when a merge request is next read alone (mergeability.ts), as GitLab
// checks it on read, not on push.
import { findProject, type ProjectRow } from '../../core/access/access.js';
import type { ServerContext } from '../../core/context.js';
import { commitThatMerged } from '../../core/git/merges.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { type RefChange, ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { nowIso } from '../../core/store/database.js';
import { type MergeRequestAction, mergeRequestEvent, mergeRequestWritten } from './events.js';
import { diffColumns } from './mergeability.js';
import {
  type MergeRequestChanges,
  type MergeRequestRow,
  openMergeRequestsOfBranch,
  updateMergeRequestIn,
} from './store.js';
import { makeMergeRequestTodos } from './todo.js';

const BRANCH_REF = 'refs/heads/';

export function registerMergeRequestRefresh(context: ServerContext): void {
  context.repositoryEvents.onChange((projectId, refs) => refreshMergeRequests(context, projectId, refs));
}

async function refreshMergeRequests(
  context: ServerContext,
  projectId: number,
  refs: readonly RefChange[],
): Promise<void> {
  const branchChanges = refs.filter((ref) => ref.ref.startsWith(BRANCH_REF));
  if (branchChanges.length === 0) return;
  const project = await findProject(context.db, String(projectId));
  if (!project) return;
  for (const change of branchChanges) {
    const branch = change.ref.slice(BRANCH_REF.length);
    if (change.after === ZERO_SHA) await closeFromDeletedBranch(context, project, branch, change.userId);
    else {
      await refreshTargets(context, project, branch, change);
      await refreshSources(context, project, branch, change);
    }
  }
}

/** Writes the changes of an open merge request and tells the listeners, as a write through the API would. */
async function writeChange(
  context: ServerContext,
  project: ProjectRow,
  row: MergeRequestRow,
  changes: MergeRequestChanges,
  action: MergeRequestAction,
  userId: number,
): Promise<void> {
  const written = await context.db.transaction().execute(async (trx) => {
    const mergeRequest = await updateMergeRequestIn(trx, row.id, 'opened', changes);
    if (!mergeRequest) return undefined;
    if (action !== 'update')
      await makeMergeRequestTodos(trx, {
        project,
        mergeRequest,
        authorId: userId,
        assigneesBefore: [],
        assigneesAfter: [],
        descriptionBefore: mergeRequest.description,
        resolved: true,
      });
    await mergeRequestWritten(context, trx, {
      action,
      mergeRequest,
      before: row,
      userId,
      at: mergeRequest.updated_at,
    });
    return mergeRequest;
  });
  if (written)
    await mergeRequestEvent(context, {
      action,
      mergeRequest: written,
      before: row,
      userId,
      at: written.updated_at,
    });
}

async function closeFromDeletedBranch(
  context: ServerContext,
  project: ProjectRow,
  branch: string,
  userId: number,
): Promise<void> {
  for (const row of await openMergeRequestsOfBranch(context.db, project.id, branch, 'source'))
    await writeChange(
      context,
      project,
      row,
      { state: 'closed', closed_at: nowIso(), closed_by_id: userId, ...NO_AUTO_MERGE },
      'close',
      userId,
    );
}

/** Whether the change brought `commit` to the branch (it is in `after` and was not in `before`). */
async function brought(context: ServerContext, project: ProjectRow, change: RefChange, commit: string) {
  const repo = repositoryOf(context, project);
  const contains = async (tip: string) =>
    (await repo.git(['merge-base', '--is-ancestor', commit, tip])).code === 0;
  return (await contains(change.after)) && (change.before === ZERO_SHA || !(await contains(change.before)));
}

async function refreshTargets(
  context: ServerContext,
  project: ProjectRow,
  branch: string,
  change: RefChange,
): Promise<void> {
  for (const row of await openMergeRequestsOfBranch(context.db, project.id, branch, 'target')) {
    const mergedBy =
      row.sha !== null && (await brought(context, project, change, row.sha))
        ? await commitThatMerged(repositoryOf(context, project), branch, row.sha)
        : null;
    if (mergedBy === null) {
      await updateMergeRequestIn(context.db, row.id, 'opened', {
        merge_status: 'unchecked',
        updated_at: row.updated_at,
      });
      continue;
    }
    const at = nowIso();
    await writeChange(
      context,
      project,
      row,
      {
        state: 'merged',
        merged_at: at,
        merged_by_id: change.userId,
        merge_commit_sha: mergedBy,
        merge_status: 'can_be_merged',
        ...NO_AUTO_MERGE,
        updated_at: at,
      },
      'merge',
      change.userId,
    );
  }
}

/** The columns of a merge request without an automatic merge. */
const NO_AUTO_MERGE = { merge_when_pipeline_succeeds: 0, merge_user_id: null, merge_params: null } as const;

/** The `sha` an automatic merge was set for (GitLab's merge_params[:sha]), if any. */
export function autoMergeSha(row: MergeRequestRow): string | null {
  if (row.merge_when_pipeline_succeeds !== 1 || row.merge_params === null) return null;
  const params = JSON.parse(row.merge_params) as { sha?: unknown };
  return typeof params.sha === 'string' ? params.sha : null;
}

async function refreshSources(
  context: ServerContext,
  project: ProjectRow,
  branch: string,
  change: RefChange,
): Promise<void> {
  for (const row of await openMergeRequestsOfBranch(context.db, project.id, branch, 'source')) {
    if (row.sha === change.after) continue;
    const changes: MergeRequestChanges = {
      sha: change.after,
      merge_status: 'unchecked',
      merge_error: null,
      ...(await diffColumns(context, project, row.target_branch, change.after)),
    };
    if (row.merge_when_pipeline_succeeds === 1 && autoMergeSha(row) !== change.after)
      Object.assign(changes, NO_AUTO_MERGE, {
        merge_error: 'The automatic merge was cancelled: the source branch was updated.',
      });
    await writeChange(context, project, row, changes, 'update', change.userId);
  }
}
