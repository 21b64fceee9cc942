// The issues of a fixtures file's projects, numbered 1, 2, 3 … in file order, with their labels and
// assignees (their notes are the notes area's).
import type { AreaFixtures } from '../../core/area.js';
import { daysBefore, issuableKey } from '../../core/store/fixtures.js';
import { replaceLabels, replaceUsers } from '../issuables/index.js';
import { insertFixtureIssue, setIssueCounter } from './store.js';

export const issuesFixtures: AreaFixtures = {
  after: ['users', 'projects'],
  async load({ fixtures, trx, users, projects, issuables }) {
    for (const project of fixtures.projects) {
      const fullPath = `${project.namespace}/${project.path}`;
      const projectId = projects.get(fullPath).id;
      const issues = project.issues ?? [];
      for (const [index, issue] of issues.entries()) {
        const createdAt = daysBefore(issue.created_days_ago);
        const id = await insertFixtureIssue(trx, {
          project_id: projectId,
          iid: index + 1,
          title: issue.title,
          description: issue.description ?? null,
          state: issue.closed_by ? 'closed' : 'opened',
          author_id: users.get(issue.author),
          confidential: issue.confidential ? 1 : 0,
          discussion_locked: null,
          due_date: issue.due_date ?? null,
          closed_at: issue.closed_by ? createdAt : null,
          closed_by_id: issue.closed_by ? users.get(issue.closed_by) : null,
          created_at: createdAt,
          updated_at: createdAt,
        });
        await replaceLabels(trx, 'Issue', id, issue.labels ?? []);
        await replaceUsers(
          trx,
          'Issue',
          id,
          'assignee',
          (issue.assignees ?? []).map((username) => users.get(username)),
        );
        issuables.set(issuableKey(fullPath, 'Issue', index + 1), {
          id,
          projectId,
          title: issue.title,
          createdAt,
        });
      }
      if (issues.length > 0) await setIssueCounter(trx, projectId, issues.length);
    }
  },
};
