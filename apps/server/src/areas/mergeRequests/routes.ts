// Routes of the merge requests area: read the request, call the service, send.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { invalidParameter } from '../../core/http/errors.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, optionalQueryString, originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody } from '../../core/http/types.js';
import { iidsQuery, integerQuery, labelsQuery, orderQuery } from '../issuables/index.js';
import { cancelAutoMerge, mergeProjectMergeRequest } from './merge.js';
import { getProjectMergeRequest, listProjectMergeRequests } from './service.js';
import type { MergeRequestFilters, MergeRequestOrderBy } from './store.js';
import { createProjectMergeRequest, deleteProjectMergeRequest, updateProjectMergeRequest } from './writes.js';

const STATES: readonly MergeRequestFilters['state'][] = ['opened', 'closed', 'locked', 'merged', 'all'];
const ORDERS: readonly MergeRequestOrderBy[] = ['created_at', 'updated_at', 'title', 'merged_at'];

function listFiltersOf(req: ApiRequest): MergeRequestFilters {
  const state = optionalQueryString(req, 'state') ?? 'all';
  if (!(STATES as readonly string[]).includes(state)) throw invalidParameter('state');
  return {
    state: state as MergeRequestFilters['state'],
    sourceBranch: optionalQueryString(req, 'source_branch'),
    targetBranch: optionalQueryString(req, 'target_branch'),
    labels: labelsQuery(req),
    search: optionalQueryString(req, 'search'),
    authorId: integerQuery(req, 'author_id'),
    iids: iidsQuery(req),
  };
}

export function mergeRequestsHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listProjectMergeRequests = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listProjectMergeRequests(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      listFiltersOf(req),
      orderQuery(req, ORDERS),
      page,
      originOf(req),
    );
    const body: ResponseBody<'listProjectMergeRequests', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.deleteProjectMergeRequest = async (req, res) => {
    await deleteProjectMergeRequest(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'merge_request_iid'),
    );
    res.status(204).end();
  };

  handlers.getProjectMergeRequest = async (req, res) => {
    const mergeRequest: ResponseBody<'getProjectMergeRequest', 200> = await getProjectMergeRequest(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'merge_request_iid'),
      originOf(req),
    );
    res.json(mergeRequest);
  };

  handlers.createProjectMergeRequest = async (req, res) => {
    const mergeRequest: ResponseBody<'createProjectMergeRequest', 201> = await createProjectMergeRequest(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'createProjectMergeRequest'>,
      originOf(req),
    );
    res.status(201).json(mergeRequest);
  };

  handlers.updateProjectMergeRequest = async (req, res) => {
    const mergeRequest: ResponseBody<'updateProjectMergeRequest', 200> = await updateProjectMergeRequest(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'merge_request_iid'),
      req.body as RequestBody<'updateProjectMergeRequest'> | undefined,
      originOf(req),
    );
    res.json(mergeRequest);
  };

  handlers.mergeProjectMergeRequest = async (req, res) => {
    const mergeRequest: ResponseBody<'mergeProjectMergeRequest', 200> = await mergeProjectMergeRequest(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'merge_request_iid'),
      req.body as RequestBody<'mergeProjectMergeRequest'> | undefined,
      originOf(req),
    );
    res.json(mergeRequest);
  };

  handlers.cancelMergeRequestAutoMerge = async (req, res) => {
    const mergeRequest: ResponseBody<'cancelMergeRequestAutoMerge', 201> = await cancelAutoMerge(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'merge_request_iid'),
      originOf(req),
    );
    res.status(201).json(mergeRequest);
  };

  return handlers;
}
