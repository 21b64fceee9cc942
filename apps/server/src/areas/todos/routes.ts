// Routes of the todos area.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, originOf } from '../../core/http/request.js';
import type { QueryParams, ResponseBody } from '../../core/http/types.js';
import { listCallerTodos, markAllCallerTodosDone, markCallerTodoDone } from './service.js';

export function todosHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listTodos = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listCallerTodos(
      context,
      callerOf(res),
      req.query as QueryParams<'listTodos'>,
      page,
      originOf(req),
    );
    const body: ResponseBody<'listTodos', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  // `mark_as_done` before `:id`: both are POSTs under /todos, and `:id` is digits only.
  handlers.markAllTodosAsDone = async (_req, res) => {
    await markAllCallerTodosDone(context, callerOf(res));
    res.status(204).end();
  };

  handlers.markTodoAsDone = async (req, res) => {
    const todo: ResponseBody<'markTodoAsDone', 201> = await markCallerTodoDone(
      context,
      callerOf(res),
      integerPathParam(req, 'id'),
      originOf(req),
    );
    res.status(201).json(todo);
  };

  return handlers;
}
