// Merge requests follow their branches (GitLab's MergeRequests::RefreshService, run on every push): for each
// branch a change moved,
// - deleted: the open merge requests from it are closed (close_upon_missing_source_branch_ref);
// - moved, as a target: the open merge requests into it whose head commit the change brought are merged
//   (post_merge_manually_merged, the merge commit found on the branch), the others need their mergeability
//   checked again (`unchecked`);
// - moved, as a source: the open merge requests from it take the new head as `sha`, their diff (diff_refs,
//   changes_count) and mergeability are to be worked out again, an automatic merge set for an older head is
//   aborted (abort_auto_merges) and the pushed commits are noted (notify_about_push: "added N commits").
// Runs in the request that moved the branch, after the repository changed, so that the next read sees it; a
// commit through the API spawns no git process here (its commits come with it).
// The diff and mergeability are worked out when a merge request is next read alone (mergeability.ts), as
// GitLab checks mergeability on read, not on push.
import { findGroup, findProject, type ProjectRow } from '../../core/access/access.js';
import type { ServerContext } from '../../core/context.js';
import { commitThatMerged } from '../../core/git/merges.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { type RefChange, ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { nowIso } from '../../core/store/database.js';
import {
  type AutoMergeChange,
  CLOSED_ABORTS_AUTO_MERGE,
  type MergeRequestAction,
  type PushedCommits,
} from './events.js';
import { writeMergeRequestState } from './stateWrite.js';
import {
  type MergeRequestChanges,
  type MergeRequestRow,
  NO_AUTO_MERGE,
  openMergeRequestsOfBranch,
  updateMergeRequestIn,
} from './store.js';

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
  notes: { autoMerge?: AutoMergeChange; pushed?: PushedCommits; push?: RefChange } = {},
): Promise<void> {
  await writeMergeRequestState(context, project, row, 'opened', changes, { action, userId, ...notes });
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
      row.merge_when_pipeline_succeeds === 1 ? { autoMerge: CLOSED_ABORTS_AUTO_MERGE } : {},
    );
}

/**
 * The commits the change brought to the branch: those it carries (a commit through the API), else git's
 * `before..after`; none for a new branch (GitLab's find_new_commits). Read once per change, and only when
 * merge requests target the branch, so that a commit spawns no git process here.
 */
async function broughtCommits(context: ServerContext, project: ProjectRow, change: RefChange) {
  if (change.commits) return new Set(change.commits.map((commit) => commit.id));
  if (change.before === ZERO_SHA) return new Set<string>();
  const listed = await repositoryOf(context, project).git(['rev-list', `${change.before}..${change.after}`]);
  if (listed.code !== 0) return new Set<string>();
  return new Set(
    listed.stdout
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== ''),
  );
}

async function refreshTargets(
  context: ServerContext,
  project: ProjectRow,
  branch: string,
  change: RefChange,
): Promise<void> {
  const targeting = await openMergeRequestsOfBranch(context.db, project.id, branch, 'target');
  if (targeting.length === 0) return;
  const brought = await broughtCommits(context, project, change);
  for (const row of targeting) {
    const mergedBy =
      row.sha !== null && brought.has(row.sha)
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
      { push: change },
    );
  }
}

/** The `sha` an automatic merge was set for (GitLab's merge_params[:sha]), if any. */
export function autoMergeSha(row: MergeRequestRow): string | null {
  if (row.merge_when_pipeline_succeeds !== 1 || row.merge_params === null) return null;
  const params = JSON.parse(row.merge_params) as { sha?: unknown };
  return typeof params.sha === 'string' ? params.sha : null;
}

/** At most this many commits of one push are listed in its note (all are counted). */
const NOTED_COMMITS = 1000;

/**
 * The commits the change brought, as the note of a push lists them: those it carries (a commit through the
 * API: new to the merge request), else git's `before..after`, split by whether the target branch had them.
 * None for a new branch.
 */
async function pushedCommits(
  context: ServerContext,
  project: ProjectRow,
  row: MergeRequestRow,
  change: RefChange,
): Promise<PushedCommits | undefined> {
  if (change.before === ZERO_SHA) return undefined;
  const namespace = await findGroup(context.db, String(project.namespace_id));
  const path = `/${namespace?.full_path ?? ''}/${project.path}/-/merge_requests/${row.iid}`;
  const commit = ({ id, title }: { id: string; title: string }) => ({ id, title });
  if (change.commits)
    return {
      added: change.commits.slice(-NOTED_COMMITS).map(commit),
      existing: [],
      total: change.commits.length,
      before: change.before,
      path,
    };
  const repo = repositoryOf(context, project);
  const { commits, total } = await repo.commitsInRange(change.after, change.before, NOTED_COMMITS);
  if (total === 0) return undefined;
  const fresh = await repo.git([
    'rev-list',
    change.after,
    `^${change.before}`,
    `^refs/heads/${row.target_branch}`,
    '--',
  ]);
  const added = new Set(fresh.code === 0 ? fresh.stdout.toString('utf8').split('\n') : []);
  return {
    added: commits.filter((one) => added.has(one.id)).map(commit),
    existing: commits.filter((one) => !added.has(one.id)).map(commit),
    total,
    before: change.before,
    path,
  };
}

async function refreshSources(
  context: ServerContext,
  project: ProjectRow,
  branch: string,
  change: RefChange,
): Promise<void> {
  for (const row of await openMergeRequestsOfBranch(context.db, project.id, branch, 'source')) {
    if (row.sha === change.after) continue;
    // The diff is made again, like the mergeability, when the merge request is next read alone.
    const changes: MergeRequestChanges = {
      sha: change.after,
      merge_status: 'unchecked',
      merge_error: null,
      diff_base_sha: null,
      diff_start_sha: null,
      changes_count: null,
    };
    const aborts = row.merge_when_pipeline_succeeds === 1 && autoMergeSha(row) !== change.after;
    if (aborts)
      Object.assign(changes, NO_AUTO_MERGE, {
        merge_error: 'The automatic merge was cancelled: the source branch was updated.',
      });
    await writeChange(context, project, row, changes, 'update', change.userId, {
      autoMerge: aborts ? { action: 'aborted', reason: 'source branch was updated' } : undefined,
      pushed: await pushedCommits(context, project, row, change),
      push: change,
    });
  }
}
