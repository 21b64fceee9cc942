// The Todos operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the caller's to-do items */
export async function listTodos() {
  // #region listTodos
  for await (const todo of api.paginate(() => api.GET('/todos'))) {
    console.log(todo.id, todo.state);
  }
  // #endregion
}

/** Mark all to-do items as done */
export async function markAllTodosAsDone() {
  // #region markAllTodosAsDone
  await unwrap(api.POST('/todos/mark_as_done'));
  // #endregion
}

/** Mark a to-do item as done */
export async function markTodoAsDone() {
  // #region markTodoAsDone
  const todo = await unwrap(
    api.POST('/todos/{id}/mark_as_done', { params: { path: { id: 102 } } }),
  );
  console.log(todo.id, todo.state);
  // #endregion
}
