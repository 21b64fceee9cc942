// Handlers of the badges area: the same six operations under /projects/:id and /groups/:id, one entry per
// operationId, sharing one function per operation pair.
import type { Response } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, optionalQueryString, pathParam, queryString } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  addSourceBadge,
  deleteSourceBadge,
  getSourceBadge,
  listSourceBadges,
  type RenderRequest,
  renderSourceBadge,
  type SourceKind,
  updateSourceBadge,
} from './service.js';

function renderQueryOf(req: ApiRequest): RenderRequest {
  return { link_url: queryString(req, 'link_url'), image_url: queryString(req, 'image_url') };
}

export function badgesHandlers(context: ServerContext): OperationHandlers {
  const list = async (kind: SourceKind, req: ApiRequest, res: Response) => {
    const page = readPage(req);
    const name = optionalQueryString(req, 'name');
    const { items, total } = await listSourceBadges(
      context,
      callerOf(res),
      kind,
      pathParam(req, 'id'),
      name,
      page,
    );
    const body: ResponseBody<'listProjectBadges' | 'listGroupBadges', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };
  const add = async (kind: SourceKind, req: ApiRequest, res: Response) => {
    const badge: ResponseBody<'addProjectBadge' | 'addGroupBadge', 201> = await addSourceBadge(
      context,
      callerOf(res),
      kind,
      pathParam(req, 'id'),
      req.body as RequestBody<'addProjectBadge' | 'addGroupBadge'>,
    );
    res.status(201).json(badge);
  };
  const render = async (kind: SourceKind, req: ApiRequest, res: Response) => {
    const preview: ResponseBody<'renderProjectBadge' | 'renderGroupBadge', 200> = await renderSourceBadge(
      context,
      callerOf(res),
      kind,
      pathParam(req, 'id'),
      renderQueryOf(req),
    );
    res.json(preview);
  };
  const get = async (kind: SourceKind, req: ApiRequest, res: Response) => {
    const badge: ResponseBody<'getProjectBadge' | 'getGroupBadge', 200> = await getSourceBadge(
      context,
      callerOf(res),
      kind,
      pathParam(req, 'id'),
      integerPathParam(req, 'badge_id'),
    );
    res.json(badge);
  };
  const update = async (kind: SourceKind, req: ApiRequest, res: Response) => {
    const badge: ResponseBody<'updateProjectBadge' | 'updateGroupBadge', 200> = await updateSourceBadge(
      context,
      callerOf(res),
      kind,
      pathParam(req, 'id'),
      integerPathParam(req, 'badge_id'),
      req.body as RequestBody<'updateProjectBadge' | 'updateGroupBadge'> | undefined,
    );
    res.json(badge);
  };
  const remove = async (kind: SourceKind, req: ApiRequest, res: Response) => {
    await deleteSourceBadge(
      context,
      callerOf(res),
      kind,
      pathParam(req, 'id'),
      integerPathParam(req, 'badge_id'),
    );
    res.status(204).end();
  };

  return {
    listProjectBadges: (req, res) => list('Project', req, res),
    addProjectBadge: (req, res) => add('Project', req, res),
    renderProjectBadge: (req, res) => render('Project', req, res),
    getProjectBadge: (req, res) => get('Project', req, res),
    updateProjectBadge: (req, res) => update('Project', req, res),
    deleteProjectBadge: (req, res) => remove('Project', req, res),
    listGroupBadges: (req, res) => list('Group', req, res),
    addGroupBadge: (req, res) => add('Group', req, res),
    renderGroupBadge: (req, res) => render('Group', req, res),
    getGroupBadge: (req, res) => get('Group', req, res),
    updateGroupBadge: (req, res) => update('Group', req, res),
    deleteGroupBadge: (req, res) => remove('Group', req, res),
  };
}
