// Routes of the epics area: read the request, call the service, send.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { toBoolean } from '../../core/http/booleans.js';
import { invalidParameter } from '../../core/http/errors.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, optionalQueryString, originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody } from '../../core/http/types.js';
import { integerQuery, labelsQuery, orderQuery } from '../issuables/index.js';
import {
  createGroupEpic,
  deleteGroupEpic,
  type EpicListQuery,
  getGroupEpic,
  listGroupEpics,
  updateGroupEpic,
} from './service.js';
import type { EpicOrder, ReactionFilter } from './store.js';
import { createEpicTodo } from './todo.js';

const EPIC_ORDERS: readonly EpicOrder['orderBy'][] = ['created_at', 'updated_at'];

/** A boolean query parameter (the validator has read Grape's spellings), or its default. */
function booleanQuery(req: ApiRequest, name: string, fallback: boolean): boolean {
  const value = req.query[name];
  if (value === undefined) return fallback;
  const flag = toBoolean(value);
  if (flag === undefined) throw invalidParameter(name);
  return flag;
}

/** A date-time query parameter as stored (ISO, UTC); one no Date holds is a 400. */
function timeQuery(req: ApiRequest, name: string): string | undefined {
  const value = optionalQueryString(req, name);
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw invalidParameter(name);
  return new Date(time).toISOString();
}

/** `my_reaction_emoji`: `None` (no reaction of the caller), `Any` (some), or an emoji name. */
function reactionQuery(req: ApiRequest): ReactionFilter | undefined {
  const value = optionalQueryString(req, 'my_reaction_emoji');
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  if (lower === 'none') return { kind: 'none' };
  if (lower === 'any') return { kind: 'any' };
  return { kind: 'name', name: value };
}

function listQueryOf(req: ApiRequest): EpicListQuery {
  const state = optionalQueryString(req, 'state') ?? 'all';
  if (state !== 'opened' && state !== 'closed' && state !== 'all') throw invalidParameter('state');
  return {
    filters: {
      state,
      authorId: integerQuery(req, 'author_id'),
      labels: labelsQuery(req),
      search: optionalQueryString(req, 'search'),
      createdAfter: timeQuery(req, 'created_after'),
      createdBefore: timeQuery(req, 'created_before'),
      updatedAfter: timeQuery(req, 'updated_after'),
      updatedBefore: timeQuery(req, 'updated_before'),
    },
    reaction: reactionQuery(req),
    order: orderQuery(req, EPIC_ORDERS),
    includeAncestorGroups: booleanQuery(req, 'include_ancestor_groups', false),
    includeDescendantGroups: booleanQuery(req, 'include_descendant_groups', true),
    withLabelDetails: booleanQuery(req, 'with_labels_details', false),
  };
}

export function epicsHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listEpics = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listGroupEpics(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      listQueryOf(req),
      page,
      originOf(req),
    );
    const body: ResponseBody<'listEpics', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.createEpic = async (req, res) => {
    const epic: ResponseBody<'createEpic', 201> = await createGroupEpic(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'createEpic'>,
      originOf(req),
    );
    res.status(201).json(epic);
  };

  handlers.getEpic = async (req, res) => {
    const epic: ResponseBody<'getEpic', 200> = await getGroupEpic(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'epic_iid'),
      originOf(req),
    );
    res.json(epic);
  };

  handlers.updateEpic = async (req, res) => {
    const epic: ResponseBody<'updateEpic', 200> = await updateGroupEpic(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'epic_iid'),
      req.body as RequestBody<'updateEpic'> | undefined,
      originOf(req),
    );
    res.json(epic);
  };

  handlers.deleteEpic = async (req, res) => {
    await deleteGroupEpic(context, callerOf(res), pathParam(req, 'id'), integerPathParam(req, 'epic_iid'));
    res.status(204).end();
  };

  handlers.createEpicTodo = async (req, res) => {
    const todo = await createEpicTodo(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'epic_iid'),
      originOf(req),
    );
    if (todo === 'exists') {
      res.status(304).end();
      return;
    }
    const body: ResponseBody<'createEpicTodo', 201> = todo;
    res.status(201).json(body);
  };

  return handlers;
}
