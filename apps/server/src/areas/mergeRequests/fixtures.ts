// The merge requests of a fixtures file's projects (the API makes more), numbered 1, 2, 3 … in
// file order, with their labels, assignees and reviewers (their notes are the notes area's). Each points at
// its source branch's head in the repository the projects area made.
import type { AreaFixtures } from '../../core/area.js';
import { GitRepository } from '../../core/git/repository.js';
import { daysBefore, issuableKey } from '../../core/store/fixtures.js';
import { replaceLabels, replaceUsers } from '../issuables/index.js';
import { insertFixtureMergeRequest, setMergeRequestCounter } from './store.js';

export const mergeRequestsFixtures: AreaFixtures = {
  after: ['users', 'projects'],
  async load({ fixtures, trx, users, projects, issuables }) {
    for (const project of fixtures.projects) {
      const fullPath = `${project.namespace}/${project.path}`;
      const { id: projectId, defaultBranch, repositoryPath } = projects.get(fullPath);
      const repo = new GitRepository(repositoryPath);
      const mergeRequests = project.merge_requests ?? [];
      for (const [index, mr] of mergeRequests.entries()) {
        const createdAt = daysBefore(mr.created_days_ago);
        const state = mr.state ?? 'opened';
        const changedBy = users.get(mr.state_changed_by ?? mr.author);
        const id = await insertFixtureMergeRequest(trx, {
          project_id: projectId,
          iid: index + 1,
          title: mr.title,
          description: mr.description ?? null,
          state,
          author_id: users.get(mr.author),
          source_project_id: projectId,
          source_branch: mr.source_branch,
          target_branch: mr.target_branch ?? defaultBranch,
          // The source branch's head now; null when the fixture names a branch the repository lacks.
          sha: await repo.resolveRef(`refs/heads/${mr.source_branch}`),
          merge_commit_sha: null,
          merge_status: mr.merge_status ?? 'can_be_merged',
          merged_by_id: state === 'merged' ? changedBy : null,
          merged_at: state === 'merged' ? createdAt : null,
          closed_by_id: state === 'closed' ? changedBy : null,
          closed_at: state === 'closed' ? createdAt : null,
          squash: mr.squash ? 1 : 0,
          force_remove_source_branch: 0,
          merge_when_pipeline_succeeds: 0,
          discussion_locked: null,
          created_at: createdAt,
          updated_at: createdAt,
        });
        await replaceLabels(trx, 'MergeRequest', id, mr.labels ?? []);
        for (const role of ['assignee', 'reviewer'] as const)
          await replaceUsers(
            trx,
            'MergeRequest',
            id,
            role,
            ((role === 'assignee' ? mr.assignees : mr.reviewers) ?? []).map((username) =>
              users.get(username),
            ),
          );
        issuables.set(issuableKey(fullPath, 'MergeRequest', index + 1), {
          id,
          projectId,
          title: mr.title,
          createdAt,
        });
      }
      if (mergeRequests.length > 0) await setMergeRequestCounter(trx, projectId, mergeRequests.length);
    }
  },
};
