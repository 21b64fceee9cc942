// The to-dos an issue write makes (issuables/todos.ts: GitLab's TodoService#new_issue and #update_issue), in
// the write's transaction. Issues are also registered as to-do targets, so the caller's to-do list shows
// to-dos about issues.
import type { ProjectRow } from '../../core/access/access.js';
import type { Db } from '../../core/store/database.js';
import { makeIssuableTodos } from '../issuables/todos.js';
import { type PresentedTarget, registerTodoTarget } from '../todos/index.js';
import { presentIssuesById } from './present.js';
import type { IssueRow } from './store.js';

export interface IssueWrite {
  project: ProjectRow;
  /** The issue as written. */
  issue: IssueRow;
  /** The user who wrote it. */
  authorId: number;
  /** The assignees before (none for a new issue) and after the write. */
  assigneesBefore: readonly number[];
  assigneesAfter: readonly number[];
  /** The description before the write (null for a new issue). */
  descriptionBefore: string | null;
  /** Whether this write closed the issue. */
  closed: boolean;
}

export async function makeIssueTodos(trx: Db, write: IssueWrite): Promise<void> {
  const { issue, closed, ...rest } = write;
  await makeIssuableTodos(trx, {
    ...rest,
    type: 'Issue',
    issuable: issue,
    confidential: issue.confidential === 1,
    resolved: closed,
  });
}

// The to-do list shows an issue as the issue list shows it (GitLab's Todo entity embeds the target's entity).
registerTodoTarget('Issue', async (context, ids, origin) => {
  const presented = new Map<number, PresentedTarget>();
  for (const [id, issue] of await presentIssuesById(context.db, ids, origin))
    presented.set(id, { target: issue, url: issue.web_url });
  return presented;
});
