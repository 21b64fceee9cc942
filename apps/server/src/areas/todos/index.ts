// To-do items (document 2, section 4.11): the caller's list, mark one done, mark all done. Other areas make
// to-dos through createTodo (assignments, mentions, epic to-dos) and show to-dos about their own objects by
// registering a presenter (registerTodoTarget).
import type { Area } from '../../core/area.js';
import type { Db } from '../../core/store/database.js';
import { todosFixtures } from './fixtures.js';
import { todosHandlers } from './routes.js';
import { type CreatedTodo, insertTodo, type NewTodo } from './store.js';

export const todosArea: Area = { name: 'todos', handlers: todosHandlers, fixtures: todosFixtures };

/**
 * Makes a pending to-do for `todo.userId`, unless one for the same target and action is already pending
 * (then `created` is false: the epic to-do's 304). `db` is a transaction (`trx`) to make the to-do part of
 * a write, or `context.db` for a write of its own.
 */
export function createTodo(db: Db, todo: NewTodo): Promise<CreatedTodo> {
  return insertTodo(db, todo);
}

export {
  directlyAddressedUsernames,
  insertMentionTodos as createMentionTodos,
  type MentionTodo,
  mentionedUserIds,
  mentionedUsernames,
} from './mentions.js';
export { type ProjectTarget, userMayReadProjectTarget } from './readers.js';
export {
  type CreatedTodo,
  // A user's deletion hands the to-dos over; the notes area deletes the to-dos about notes it deletes.
  deleteTodosAboutNotes,
  findTodoRecord,
  handOverTodos,
  hasPendingTodo,
  markTargetTodosDone,
  type NewTodo,
  type TodoAction,
} from './store.js';
export {
  type PresentedTarget,
  registerTodoTarget,
  type TodoTarget,
  type TodoTargetPresenter,
} from './targets.js';
