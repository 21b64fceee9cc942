// The to-dos an issue or merge request write makes (GitLab's TodoService#new_issuable, #reassigned_assignable,
// #update_issuable, #close_issue, #merge_merge_request): new assignees get an `assigned` to-do, users newly
// @-mentioned in the description a `mentioned` (or `directly_addressed`) one if they may read it; the user
// who closes or merges it has their pending to-dos on it done. Runs in the write's transaction.
//
// Imported as `issuables/todos.js`, not through issuables/index.ts: the to-dos area imports the issuables'
// presenters from that index, so re-exporting this module there would close an import cycle.
import type { ProjectRow } from '../../core/access/access.js';
import type { Db } from '../../core/store/database.js';
import {
  createMentionTodos,
  createTodo,
  markTargetTodosDone,
  mentionedUserIds,
  userMayReadProjectTarget,
} from '../todos/index.js';
import type { IssuableType } from './store.js';

export interface IssuableTodoWrite {
  project: ProjectRow;
  type: IssuableType;
  /** The issuable as written. */
  issuable: { id: number; title: string; description: string | null; author_id: number };
  /** Whether it is confidential (issues): then only participants and Reporters and above read it. */
  confidential: boolean;
  /** The user who wrote it. */
  authorId: number;
  /** The assignees before (none for a new one) and after the write. */
  assigneesBefore: readonly number[];
  assigneesAfter: readonly number[];
  /** The description before the write (null for a new one). */
  descriptionBefore: string | null;
  /** Whether this write closed or merged it. */
  resolved: boolean;
}

export async function makeIssuableTodos(trx: Db, write: IssuableTodoWrite): Promise<void> {
  const { issuable, project, authorId } = write;
  const target = { type: write.type, id: issuable.id };
  const todo = { authorId, target, projectId: project.id, body: issuable.title };
  for (const userId of write.assigneesAfter)
    if (!write.assigneesBefore.includes(userId))
      await createTodo(trx, { ...todo, userId, action: 'assigned' });

  if (issuable.description !== write.descriptionBefore) {
    const readable = {
      project,
      confidential: write.confidential,
      participantIds: [issuable.author_id, ...write.assigneesAfter],
    };
    await createMentionTodos(
      trx,
      issuable.description,
      todo,
      (userId) => userMayReadProjectTarget(trx, userId, readable),
      await mentionedUserIds(trx, write.descriptionBefore),
    );
  }

  if (write.resolved) await markTargetTodosDone(trx, authorId, target);
}
