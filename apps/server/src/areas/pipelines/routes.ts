// Routes of the pipelines area.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { optionalQueryString, originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  cancelPipeline,
  createPipeline,
  deletePipeline,
  getPipeline,
  getPipelineTestReport,
  type ListPipelinesQuery,
  listPipelines,
  listPipelineVariables,
  retryPipeline,
} from './service.js';

/** The pipeline id (the validator has checked that it is an integer). */
function pipelineIdOf(req: ApiRequest): number {
  return Number(pathParam(req, 'pipeline_id'));
}

/** The list filters; the validator has checked every value against its enum or format. */
function listQueryOf(req: ApiRequest): ListPipelinesQuery {
  const text = (name: string) => optionalQueryString(req, name);
  const yamlErrors = req.query.yaml_errors as unknown;
  return {
    scope: text('scope') as ListPipelinesQuery['scope'],
    status: text('status') as ListPipelinesQuery['status'],
    ref: text('ref'),
    sha: text('sha'),
    yaml_errors: yamlErrors === undefined ? undefined : yamlErrors === true || yamlErrors === 'true',
    name: text('name'),
    username: text('username'),
    updated_after: text('updated_after'),
    updated_before: text('updated_before'),
    order_by: text('order_by') as ListPipelinesQuery['order_by'],
    sort: text('sort') as ListPipelinesQuery['sort'],
  };
}

export function pipelinesHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.listPipelines = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listPipelines(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      listQueryOf(req),
      page,
      originOf(req),
    );
    setPaginationHeaders(req, res, page, total);
    const body: ResponseBody<'listPipelines', 200> = items;
    res.json(body);
  };

  handlers.createPipeline = async (req, res) => {
    const body: ResponseBody<'createPipeline', 201> = await createPipeline(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'createPipeline'>,
      originOf(req),
    );
    res.status(201).json(body);
  };

  handlers.getPipeline = async (req, res) => {
    const body: ResponseBody<'getPipeline', 200> = await getPipeline(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pipelineIdOf(req),
      originOf(req),
    );
    res.json(body);
  };

  handlers.deletePipeline = async (req, res) => {
    await deletePipeline(context, callerOf(res), pathParam(req, 'id'), pipelineIdOf(req));
    res.status(204).end();
  };

  handlers.getPipelineVariables = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listPipelineVariables(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pipelineIdOf(req),
      page,
    );
    setPaginationHeaders(req, res, page, total);
    const body: ResponseBody<'getPipelineVariables', 200> = items;
    res.json(body);
  };

  handlers.getPipelineTestReport = async (req, res) => {
    const body: ResponseBody<'getPipelineTestReport', 200> = await getPipelineTestReport(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pipelineIdOf(req),
    );
    res.json(body);
  };

  handlers.cancelPipeline = async (req, res) => {
    const body: ResponseBody<'cancelPipeline', 200> = await cancelPipeline(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pipelineIdOf(req),
      originOf(req),
    );
    res.json(body);
  };

  handlers.retryPipeline = async (req, res) => {
    const body: ResponseBody<'retryPipeline', 201> = await retryPipeline(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pipelineIdOf(req),
      originOf(req),
    );
    res.status(201).json(body);
  };

  return handlers;
}
