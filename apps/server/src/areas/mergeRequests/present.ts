// Merge request rows → the spec's MergeRequest body (lists: the basic fields; single reads: all of them).

import type { Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import {
  type IssuableUser,
  labelsOf,
  NO_TIME_STATS,
  presentAcrossProjects,
  presentUser,
  taskCompletion,
  usersById,
  usersOf,
} from '../issuables/index.js';
import type { Pipeline } from '../pipelines/index.js';
import { type MergeRequestRow, mergeRequestsById } from './store.js';

export type MergeRequest = Schemas['MergeRequest'];

export interface MergeRequestSetting {
  fullPath: string;
  origin: string;
}

/** A title marked as a draft: `Draft:`, `[Draft]` or `(Draft)` first, any case (GitLab's DRAFT_REGEX). */
export function isDraftTitle(title: string): boolean {
  return /^\s*(?:\[draft\]|\(draft\)|draft:|draft\s+-)/i.test(title);
}

/** GitLab's detailed_merge_status from what is stored (no pipelines, approvals or discussions here). */
function detailedMergeStatus(row: MergeRequestRow, draft: boolean): string {
  if (row.state !== 'opened') return 'not_open';
  if (draft) return 'draft_status';
  // The source brings no commit (its head is the merge base): GitLab's CheckCommitsStatusService.
  if (row.sha !== null && row.diff_base_sha === row.sha) return 'commits_status';
  if (row.merge_status === 'cannot_be_merged' || row.merge_status === 'cannot_be_merged_recheck')
    return 'broken_status';
  if (row.merge_status === 'unchecked' || row.merge_status === 'checking') return 'checking';
  return 'mergeable';
}

export async function presentMergeRequests(
  db: Db,
  rows: readonly MergeRequestRow[],
  setting: MergeRequestSetting,
): Promise<MergeRequest[]> {
  const ids = rows.map((row) => row.id);
  const [labels, assignees, reviewers, users] = await Promise.all([
    labelsOf(db, 'MergeRequest', ids),
    usersOf(db, 'MergeRequest', 'assignee', ids),
    usersOf(db, 'MergeRequest', 'reviewer', ids),
    usersById(
      db,
      rows.flatMap((row) =>
        [row.author_id, row.merged_by_id, row.closed_by_id, row.merge_user_id].filter(
          (id): id is number => id !== null,
        ),
      ),
    ),
  ]);
  const { origin, fullPath } = setting;
  const userOrNull = (id: number | null) => {
    const user = id === null ? undefined : users.get(id);
    return user ? presentUser(user, origin) : null;
  };
  const presentAll = (list: IssuableUser[] | undefined) =>
    (list ?? []).map((user) => presentUser(user, origin));
  return rows.map((row) => {
    const author = users.get(row.author_id);
    if (!author) throw new Error(`merge request ${row.id}: author ${row.author_id} is missing`);
    const rowAssignees = presentAll(assignees.get(row.id));
    const draft = isDraftTitle(row.title);
    const mergedBy = row.state === 'merged' ? userOrNull(row.merged_by_id) : null;
    // Who merged it, or who set it to merge when the pipeline succeeds (GitLab's merge_user:
    // `metrics.merged_by || merge_user`; a merger's deletion forgets merged_by, merge_user goes to the ghost).
    const mergeUser =
      mergedBy ??
      (row.state === 'merged' || row.merge_when_pipeline_succeeds === 1
        ? userOrNull(row.merge_user_id)
        : null);
    return {
      id: row.id,
      iid: row.iid,
      project_id: row.project_id,
      title: row.title,
      description: row.description,
      state: row.state as MergeRequest['state'],
      created_at: row.created_at,
      updated_at: row.updated_at,
      merged_by: mergedBy,
      merge_user: mergeUser,
      merged_at: row.state === 'merged' ? row.merged_at : null,
      closed_by: row.state === 'closed' ? userOrNull(row.closed_by_id) : null,
      closed_at: row.state === 'closed' ? row.closed_at : null,
      target_branch: row.target_branch,
      source_branch: row.source_branch,
      user_notes_count: 0,
      upvotes: 0,
      downvotes: 0,
      author: presentUser(author, origin),
      assignees: rowAssignees,
      assignee: rowAssignees[0] ?? null,
      reviewers: presentAll(reviewers.get(row.id)),
      source_project_id: row.source_project_id,
      target_project_id: row.project_id,
      labels: labels.get(row.id) ?? [],
      draft,
      work_in_progress: draft,
      milestone: null,
      merge_when_pipeline_succeeds: row.merge_when_pipeline_succeeds === 1,
      merge_status: row.merge_status as MergeRequest['merge_status'],
      detailed_merge_status: detailedMergeStatus(row, draft),
      sha: row.sha,
      merge_commit_sha: row.merge_commit_sha,
      squash_commit_sha: row.squash_commit_sha,
      discussion_locked: row.discussion_locked === null ? null : row.discussion_locked === 1,
      should_remove_source_branch:
        row.should_remove_source_branch === null ? null : row.should_remove_source_branch === 1,
      force_remove_source_branch: row.force_remove_source_branch === 1,
      reference: `!${row.iid}`,
      references: { short: `!${row.iid}`, relative: `!${row.iid}`, full: `${fullPath}!${row.iid}` },
      web_url: `${origin}/${fullPath}/-/merge_requests/${row.iid}`,
      time_stats: { ...NO_TIME_STATS },
      squash: row.squash === 1,
      squash_on_merge: row.squash === 1,
      task_completion_status: taskCompletion(row.description),
      has_conflicts: row.merge_status === 'cannot_be_merged',
      blocking_discussions_resolved: true,
      imported: false,
      imported_from: 'none',
    };
  });
}

/**
 * The merge requests with these IDs, of any projects, as the list shows them (the basic fields, which other
 * objects embed: a to-do's target), by ID; a missing one is left out. A few queries per project.
 */
export async function presentMergeRequestsById(
  db: Db,
  ids: readonly number[],
  origin: string,
): Promise<Map<number, MergeRequest>> {
  return presentAcrossProjects(db, await mergeRequestsById(db, ids), (rows, _projectId, fullPath) =>
    presentMergeRequests(db, rows, { fullPath, origin }),
  );
}

/** The fields only single reads have. */
export interface MergeRequestDetails {
  subscribed: boolean;
  canMerge: boolean;
  firstContribution: boolean;
  /** The newest pipeline of the source branch for `sha` (GitLab's head pipeline), null when none. */
  headPipeline: Pipeline | null;
  /** Where the project's pages are: `<origin>/<full path>`. */
  projectUrl: string;
}

type PipelineBasic = Schemas['PipelineListItem'];

/** GitLab's PipelineBasic of a pipeline: the deprecated `pipeline` field shows the head pipeline so. */
function basicOf(pipeline: Pipeline): PipelineBasic {
  const { id, iid, project_id, source, status, ref, sha, web_url, created_at, updated_at } = pipeline;
  return { id, iid, project_id, source, status, ref, sha, web_url, created_at, updated_at };
}

/** GitLab's diff_refs: the diff's base, head and start SHAs, null before its diff is made. */
function diffRefs(row: MergeRequestRow): MergeRequest['diff_refs'] {
  if (row.diff_start_sha === null) return null;
  return { base_sha: row.diff_base_sha, head_sha: row.sha, start_sha: row.diff_start_sha };
}

export function withDetails(
  basic: MergeRequest,
  row: MergeRequestRow,
  details: MergeRequestDetails,
): MergeRequest {
  return {
    ...basic,
    subscribed: details.subscribed,
    // A string, as GitLab's entity gives it (it may say "1000+").
    changes_count: row.changes_count === null ? null : String(row.changes_count),
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: details.headPipeline ? basicOf(details.headPipeline) : null,
    head_pipeline: details.headPipeline,
    diff_refs: diffRefs(row),
    merge_error: row.merge_error,
    first_contribution: details.firstContribution,
    user: { can_merge: details.canMerge },
  };
}
