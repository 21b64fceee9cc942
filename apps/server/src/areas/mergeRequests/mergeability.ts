// Whether a merge request can be merged, and its diff (GitLab's MergeRequest#check_mergeability and
// merge_request_diff): worked out from the repository when it is made, when its target changes, and when it
// is read alone after a push left it `unchecked` (refresh.ts).
import type { ProjectRow } from '../../core/access/access.js';
import type { ServerContext } from '../../core/context.js';
import { checkMerge, type MergeMethod, mergeDiff } from '../../core/git/merges.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { type MergeRequestChanges, type MergeRequestRow, updateMergeRequestIn } from './store.js';

/** The project's merge method as stored (`merge` for anything unknown). */
export function mergeMethodOf(project: ProjectRow): MergeMethod {
  const method = project.merge_method;
  return method === 'ff' || method === 'rebase_merge' ? method : 'merge';
}

/** `can_be_merged` or `cannot_be_merged` (conflicts, or no fast-forward where the method needs one). */
export async function mergeStatusOf(
  context: ServerContext,
  project: ProjectRow,
  targetBranch: string,
  sourceCommit: string,
): Promise<'can_be_merged' | 'cannot_be_merged'> {
  const check = await checkMerge(
    repositoryOf(context, project),
    targetBranch,
    sourceCommit,
    mergeMethodOf(project),
  );
  return check.ok || check.reason === 'nothing_to_merge' ? 'can_be_merged' : 'cannot_be_merged';
}

/** The diff columns of a merge request whose head is `sha`, into `targetBranch` as it is now. */
export async function diffColumns(
  context: ServerContext,
  project: ProjectRow,
  targetBranch: string,
  sha: string,
): Promise<Pick<MergeRequestChanges, 'diff_base_sha' | 'diff_start_sha' | 'changes_count'>> {
  const diff = await mergeDiff(repositoryOf(context, project), targetBranch, sha);
  return {
    diff_base_sha: diff?.baseSha ?? null,
    diff_start_sha: diff?.startSha ?? null,
    changes_count: diff?.changesCount ?? null,
  };
}

/**
 * An open merge request whose mergeability is `unchecked` (or whose diff was never made) checked now and
 * stored, as GitLab checks it when it is read (check_mergeability); any other row as it is.
 */
export async function recheckMergeRequest(
  context: ServerContext,
  project: ProjectRow,
  row: MergeRequestRow,
): Promise<MergeRequestRow> {
  if (row.state !== 'opened' || row.sha === null) return row;
  const changes: MergeRequestChanges = {};
  if (row.merge_status === 'unchecked')
    changes.merge_status = await mergeStatusOf(context, project, row.target_branch, row.sha);
  if (row.diff_start_sha === null)
    Object.assign(changes, await diffColumns(context, project, row.target_branch, row.sha));
  if (Object.keys(changes).length === 0) return row;
  // Not a change of the merge request: its updated_at stays.
  return (
    (await updateMergeRequestIn(context.db, row.id, 'opened', { ...changes, updated_at: row.updated_at })) ??
    row
  );
}
