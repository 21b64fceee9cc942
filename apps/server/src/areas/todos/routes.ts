// Routes of the todos area.
import { Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, originOf } from '../../core/http/request.js';
import type { QueryParams, ResponseBody } from '../../core/http/types.js';
import { listCallerTodos, markAllCallerTodosDone, markCallerTodoDone } from './service.js';

export function todosRouter(context: ServerContext): Router {
  const router = Router();

  router.get('/todos', async (req, res) => {
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
  });

  // `mark_as_done` before `:id`: both are POSTs under /todos, and `:id` is digits only.
  router.post('/todos/mark_as_done', async (_req, res) => {
    await markAllCallerTodosDone(context, callerOf(res));
    res.status(204).end();
  });

  router.post('/todos/:id/mark_as_done', async (req, res) => {
    const todo: ResponseBody<'markTodoAsDone', 201> = await markCallerTodoDone(
      context,
      callerOf(res),
      integerPathParam(req, 'id'),
      originOf(req),
    );
    res.status(201).json(todo);
  });

  return router;
}
