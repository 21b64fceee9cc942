// Routes of the issues area: read the request, call the service, send.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { toBoolean } from '../../core/http/booleans.js';
import { invalidParameter } from '../../core/http/errors.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, optionalQueryString, originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody } from '../../core/http/types.js';
import { iidsQuery, integerQuery, labelsQuery, orderQuery } from '../issuables/index.js';
import {
  createProjectIssue,
  deleteProjectIssue,
  getProjectIssue,
  type IssueListFilters,
  listProjectIssues,
  updateProjectIssue,
} from './service.js';
import type { IssueOrder } from './store.js';

function assigneeQuery(req: ApiRequest): IssueListFilters['assignee'] {
  const value = req.query.assignee_id;
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.toLowerCase() === 'none') return 'none';
  if (typeof value === 'string' && value.toLowerCase() === 'any') return 'any';
  return integerQuery(req, 'assignee_id');
}

function listFiltersOf(req: ApiRequest): IssueListFilters {
  const state = optionalQueryString(req, 'state') ?? 'all';
  if (state !== 'opened' && state !== 'closed' && state !== 'all') throw invalidParameter('state');
  const confidential = req.query.confidential;
  const confidentialFlag = confidential === undefined ? undefined : toBoolean(confidential);
  if (confidential !== undefined && confidentialFlag === undefined) throw invalidParameter('confidential');
  return {
    state,
    labels: labelsQuery(req),
    search: optionalQueryString(req, 'search'),
    authorId: integerQuery(req, 'author_id'),
    assignee: assigneeQuery(req),
    iids: iidsQuery(req),
    confidential: confidentialFlag,
  };
}

const ISSUE_ORDERS: readonly IssueOrder['orderBy'][] = ['created_at', 'updated_at'];

export function issuesHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listProjectIssues = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listProjectIssues(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      listFiltersOf(req),
      orderQuery(req, ISSUE_ORDERS),
      page,
      originOf(req),
    );
    const body: ResponseBody<'listProjectIssues', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.createProjectIssue = async (req, res) => {
    const issue: ResponseBody<'createProjectIssue', 201> = await createProjectIssue(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'createProjectIssue'>,
      originOf(req),
    );
    res.status(201).json(issue);
  };

  handlers.deleteProjectIssue = async (req, res) => {
    await deleteProjectIssue(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'issue_iid'),
    );
    res.status(204).end();
  };

  handlers.getProjectIssue = async (req, res) => {
    const issue: ResponseBody<'getProjectIssue', 200> = await getProjectIssue(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'issue_iid'),
      originOf(req),
    );
    res.json(issue);
  };

  handlers.updateProjectIssue = async (req, res) => {
    const issue: ResponseBody<'updateProjectIssue', 200> = await updateProjectIssue(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'issue_iid'),
      req.body as RequestBody<'updateProjectIssue'> | undefined,
      originOf(req),
    );
    res.json(issue);
  };

  return handlers;
}
