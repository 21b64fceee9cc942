// Routes of the snippets area: personal snippets under /snippets, project snippets under /projects/:id.

import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  changeProjectSnippet,
  changeSnippet,
  createProjectSnippet,
  createSnippet,
  getProjectSnippet,
  getProjectSnippetRaw,
  getProjectSnippetUserAgentDetail,
  getSnippet,
  getSnippetRaw,
  getSnippetUserAgentDetail,
  listOwnSnippets,
  listPublicSnippets,
  listSnippetsOfProject,
  type RequestClient,
  removeProjectSnippet,
  removeSnippet,
} from './service.js';

/** The creating request's User-Agent and IP address (an IPv4 address without its IPv6 mapping). */
function clientOf(req: ApiRequest): RequestClient {
  const address = req.ip ?? req.socket.remoteAddress ?? '';
  return {
    userAgent: req.get('user-agent') ?? '',
    ipAddress: address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address,
  };
}

export function snippetsHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  /* Personal snippets. `public` comes before `:id`, which it would otherwise match. */

  handlers.listSnippets = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listOwnSnippets(context, callerOf(res), page, originOf(req));
    const body: ResponseBody<'listSnippets', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.listPublicSnippets = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listPublicSnippets(context, callerOf(res), page, originOf(req));
    const body: ResponseBody<'listPublicSnippets', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.createSnippet = async (req, res) => {
    const snippet: ResponseBody<'createSnippet', 201> = await createSnippet(
      context,
      callerOf(res),
      req.body as RequestBody<'createSnippet'>,
      clientOf(req),
      originOf(req),
    );
    res.status(201).json(snippet);
  };

  handlers.getSnippet = async (req, res) => {
    const snippet: ResponseBody<'getSnippet', 200> = await getSnippet(
      context,
      callerOf(res),
      integerPathParam(req, 'id'),
      originOf(req),
    );
    res.json(snippet);
  };

  handlers.updateSnippet = async (req, res) => {
    const snippet: ResponseBody<'updateSnippet', 200> = await changeSnippet(
      context,
      callerOf(res),
      integerPathParam(req, 'id'),
      (req.body ?? {}) as RequestBody<'updateSnippet'>,
      originOf(req),
    );
    res.json(snippet);
  };

  handlers.deleteSnippet = async (req, res) => {
    await removeSnippet(context, callerOf(res), integerPathParam(req, 'id'));
    res.status(204).end();
  };

  handlers.getSnippetRaw = async (req, res) => {
    const content = await getSnippetRaw(context, callerOf(res), integerPathParam(req, 'id'));
    res.type('text/plain').send(content);
  };

  handlers.getSnippetUserAgentDetail = async (req, res) => {
    const detail: ResponseBody<'getSnippetUserAgentDetail', 200> = await getSnippetUserAgentDetail(
      context,
      callerOf(res),
      integerPathParam(req, 'id'),
    );
    res.json(detail);
  };

  /* Project snippets. */

  handlers.listProjectSnippets = async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listSnippetsOfProject(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      page,
      originOf(req),
    );
    const body: ResponseBody<'listProjectSnippets', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  handlers.createProjectSnippet = async (req, res) => {
    const snippet: ResponseBody<'createProjectSnippet', 201> = await createProjectSnippet(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as RequestBody<'createProjectSnippet'>,
      clientOf(req),
      originOf(req),
    );
    res.status(201).json(snippet);
  };

  handlers.getProjectSnippet = async (req, res) => {
    const snippet: ResponseBody<'getProjectSnippet', 200> = await getProjectSnippet(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'snippet_id'),
      originOf(req),
    );
    res.json(snippet);
  };

  handlers.updateProjectSnippet = async (req, res) => {
    const snippet: ResponseBody<'updateProjectSnippet', 200> = await changeProjectSnippet(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'snippet_id'),
      (req.body ?? {}) as RequestBody<'updateProjectSnippet'>,
      originOf(req),
    );
    res.json(snippet);
  };

  handlers.deleteProjectSnippet = async (req, res) => {
    await removeProjectSnippet(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'snippet_id'),
    );
    res.status(204).end();
  };

  handlers.getProjectSnippetRaw = async (req, res) => {
    const content = await getProjectSnippetRaw(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'snippet_id'),
    );
    res.type('text/plain').send(content);
  };

  handlers.getProjectSnippetUserAgentDetail = async (req, res) => {
    const detail: ResponseBody<'getProjectSnippetUserAgentDetail', 200> =
      await getProjectSnippetUserAgentDetail(
        context,
        callerOf(res),
        pathParam(req, 'id'),
        integerPathParam(req, 'snippet_id'),
      );
    res.json(detail);
  };

  return handlers;
}
