// The to-dos an issue write makes (GitLab's TodoService#new_issue and #update_issue): new assignees get an
// `assigned` to-do, users newly @-mentioned in the description a `mentioned` (or `directly_addressed`)
// one, if they may read the issue; a user who closes an issue has their pending to-dos on it done.
// Runs in the write's transaction, so the issue and its to-dos are written together. Issues are also
// registered as to-do targets, so the caller's to-do list shows to-dos about issues.
import type { ProjectRow } from '../../core/access/access.js';
import type { Db } from '../../core/store/database.js';
import {
  createMentionTodos,
  createTodo,
  markTargetTodosDone,
  mentionedUserIds,
  type PresentedTarget,
  registerTodoTarget,
  userMayReadProjectTarget,
} from '../todos/index.js';
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
  const { issue, project, authorId } = write;
  const target = { type: 'Issue', id: issue.id };
  const todo = { authorId, target, projectId: project.id, body: issue.title };
  for (const userId of write.assigneesAfter)
    if (!write.assigneesBefore.includes(userId))
      await createTodo(trx, { ...todo, userId, action: 'assigned' });

  if (issue.description !== write.descriptionBefore) {
    const readable = {
      project,
      confidential: issue.confidential === 1,
      participantIds: [issue.author_id, ...write.assigneesAfter],
    };
    await createMentionTodos(
      trx,
      issue.description,
      todo,
      (userId) => userMayReadProjectTarget(trx, userId, readable),
      await mentionedUserIds(trx, write.descriptionBefore),
    );
  }

  if (write.closed) await markTargetTodosDone(trx, authorId, target);
}

// The to-do list shows an issue as the issue list shows it (GitLab's Todo entity embeds the target's entity).
registerTodoTarget('Issue', async (context, ids, origin) => {
  const presented = new Map<number, PresentedTarget>();
  for (const [id, issue] of await presentIssuesById(context.db, ids, origin))
    presented.set(id, { target: issue, url: issue.web_url });
  return presented;
});
