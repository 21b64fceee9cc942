// To-do items (document 2, section 4.11; GitLab's lib/api/todos.rb and TodosFinder). Every operation needs a
// signed-in caller and reads or changes only the caller's own to-dos. The list shows pending to-dos unless
// `state=done` is asked for; `author_id`, `project_id` and `group_id` name users, projects and groups that
// must exist (404 otherwise, as GitLab's finder's `find`); a project the caller may not read matches no to-do.
import { resolveProject } from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, notFound } from '../../core/http/errors.js';
import type { QueryParams } from '../../core/http/types.js';
import { CachedUntilDatabaseChange } from '../../core/store/databaseVersion.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { presentTodos, type Todo } from './present.js';
import {
  findUserRow,
  findUserTodo,
  groupWithDescendants,
  listTodos,
  markAllTodosDone,
  markTodoDone,
  projectExists,
  type TodoFilters,
} from './store.js';
import { todoTargetTypes } from './targets.js';

type ListQuery = QueryParams<'listTodos'>;

/** A safe integer ID from the query, or 0 (which names nothing) for one beyond them. */
function safeId(value: number): number {
  return Number.isSafeInteger(value) ? value : 0;
}

async function filtersOf(context: ServerContext, caller: Caller, query: ListQuery): Promise<TodoFilters> {
  const db = context.db;
  const filters: TodoFilters = {
    state: query.state === 'done' ? 'done' : 'pending',
    targetTypes: todoTargetTypes(),
  };
  if (query.action !== undefined) filters.action = query.action;
  if (query.type !== undefined) filters.type = query.type;
  if (query.author_id !== undefined) {
    const author = await findUserRow(db, safeId(query.author_id));
    if (!author) throw notFound('User');
    filters.authorId = author.id;
  }
  if (query.project_id !== undefined) {
    try {
      filters.projectId = (await resolveProject(db, caller, String(safeId(query.project_id)))).project.id;
    } catch (error) {
      // An existing project the caller may not read matches the to-dos without a project (GitLab's
      // finder drops the project it may not read); an unknown one is a 404.
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
      if (!(await projectExists(db, safeId(query.project_id)))) throw notFound('Project');
      filters.projectId = null;
    }
  }
  if (query.group_id !== undefined) {
    // The group and its descendants (GitLab's for_group_ids_and_descendants).
    const groupIds = await groupWithDescendants(db, safeId(query.group_id));
    if (!groupIds) throw notFound('Group');
    filters.groupIds = groupIds;
  }
  return filters;
}

/**
 * Presented pages of to-dos, kept until the database changes: a page shows its authors, projects, groups and
 * targets (a dozen statements for a page of issues and epics), all read from the database alone, so a to-do
 * list polled between two writes reads nothing. Shared between requests: never modified.
 */
const presentedPages = new CachedUntilDatabaseChange<Page<Todo>>(200);

export async function listCallerTodos(
  context: ServerContext,
  caller: Caller,
  query: ListQuery,
  window: PageWindow,
  origin: string,
): Promise<Page<Todo>> {
  const user = requireUser(caller);
  requireScope(caller, 'read_api');
  const filters = await filtersOf(context, caller, query);
  const key = JSON.stringify([user.id, filters, window, origin]);
  return presentedPages.get(context.db, key, async () => {
    const page = await listTodos(context.db, user.id, filters, window);
    return { items: await presentTodos(context, page.items, origin), total: page.total };
  });
}

export async function markCallerTodoDone(
  context: ServerContext,
  caller: Caller,
  todoId: number,
  origin: string,
): Promise<Todo> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const todo = await context.db.transaction().execute(async (trx) => {
    const current = await findUserTodo(trx, user.id, safeId(todoId));
    return current ? markTodoDone(trx, current.id) : undefined;
  });
  if (!todo) throw notFound('Todo');
  const [presented] = await presentTodos(context, [todo], origin);
  // A to-do whose target is gone cannot be shown (GitLab's find would not find it either).
  if (!presented) throw notFound('Todo');
  return presented;
}

export async function markAllCallerTodosDone(context: ServerContext, caller: Caller): Promise<void> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  await markAllTodosDone(context.db, user.id);
}
