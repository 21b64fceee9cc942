// The body of a merge request hook delivery, as GitLab's Gitlab::HookData::MergeRequestBuilder and
// MergeRequest#to_hook_data build it (object_kind `merge_request`, the `Merge Request Hook` event). Pure: the
// event gathers the facts. Labels are named only (GitLab adds their colours and ids); milestones, reviewers
// and time tracking are not modelled here, so they are null, empty or zero.
import type { BranchCommitInfo } from '../../core/git/repository.js';
import type { IssuableUser } from '../issuables/index.js';
import type { MergeRequestAction, MergeRequestChange } from '../mergeRequests/index.js';
import { commitHookAttrs, projectHookAttrs, userHookAttrs } from './payloads.js';
import type { HookProject, HookUser } from './store.js';

export const MERGE_REQUEST_HOOK = 'Merge Request Hook';

export interface MergeRequestHookEvent {
  baseUrl: string;
  project: HookProject;
  user: HookUser;
  change: MergeRequestChange;
  labels: readonly string[];
  assignees: readonly IssuableUser[];
  /** The source's head commit, null when git no longer has it. */
  lastCommit: BranchCommitInfo | null;
}

/** GitLab's state_id numbers. */
const STATE_IDS: Record<string, number> = { opened: 1, closed: 2, merged: 3, locked: 4 };

/** The attributes a write changed, as `{previous, current}` (GitLab's `changes`). */
function changesOf(change: MergeRequestChange): Record<string, { previous: unknown; current: unknown }> {
  const { before, mergeRequest } = change;
  const changes: Record<string, { previous: unknown; current: unknown }> = {};
  if (before === null) return changes;
  const fields = [
    'title',
    'description',
    'state',
    'target_branch',
    'merge_commit_sha',
    'updated_at',
  ] as const;
  for (const field of fields)
    if (before[field] !== mergeRequest[field])
      changes[field === 'state' ? 'state_id' : field] =
        field === 'state'
          ? { previous: STATE_IDS[before.state] ?? null, current: STATE_IDS[mergeRequest.state] ?? null }
          : { previous: before[field], current: mergeRequest[field] };
  return changes;
}

export function buildMergeRequestPayload(event: MergeRequestHookEvent) {
  const { baseUrl, project, user, change, lastCommit } = event;
  const row = change.mergeRequest;
  const attrs = projectHookAttrs(baseUrl, project, true);
  const draft = /^\s*(?:\[draft\]|\(draft\)|draft:|draft\s+-)/i.test(row.title);
  const action: MergeRequestAction = change.action;
  const labels = event.labels.map((title) => ({ title }));
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: userHookAttrs(user),
    project: projectHookAttrs(baseUrl, project, false),
    object_attributes: {
      id: row.id,
      iid: row.iid,
      target_branch: row.target_branch,
      source_branch: row.source_branch,
      source_project_id: row.source_project_id,
      target_project_id: row.project_id,
      author_id: row.author_id,
      assignee_id: event.assignees[0]?.id ?? null,
      assignee_ids: event.assignees.map((assignee) => assignee.id),
      reviewer_ids: [],
      title: row.title,
      description: row.description,
      created_at: row.created_at,
      updated_at: row.updated_at,
      merged_at: row.merged_at,
      closed_at: row.closed_at,
      milestone_id: null,
      state_id: STATE_IDS[row.state] ?? null,
      state: row.state,
      merge_status: row.merge_status,
      merge_commit_sha: row.merge_commit_sha,
      merge_user_id: row.merged_by_id,
      updated_by_id: change.userId,
      work_in_progress: draft,
      draft,
      squash: row.squash === 1,
      merge_when_pipeline_succeeds: row.merge_when_pipeline_succeeds === 1,
      merge_params: { force_remove_source_branch: row.force_remove_source_branch === 1 ? '1' : '0' },
      blocking_discussions_resolved: true,
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
      url: `${attrs.web_url}/-/merge_requests/${row.iid}`,
      source: attrs,
      target: attrs,
      last_commit: lastCommit ? commitHookAttrs(baseUrl, project, lastCommit) : null,
      labels,
      action,
    },
    labels,
    changes: changesOf(change),
    repository: {
      name: attrs.name,
      url: attrs.url,
      description: attrs.description,
      homepage: attrs.homepage,
    },
    assignees: event.assignees.map((assignee) => ({
      id: assignee.id,
      name: assignee.name,
      username: assignee.username,
      avatar_url: assignee.avatar_url,
      email: '',
    })),
    reviewers: [],
  };
}
