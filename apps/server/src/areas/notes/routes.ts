// Routes of the notes area: the same five operations on the notes of issues, merge requests, project
// snippets and epics. Read the request, call the service, send.
import type { Request } from 'express';
import { Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { invalidParameter } from '../../core/http/errors.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, optionalQueryString, originOf, pathParam } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  findEpicNoteable,
  findIssueNoteable,
  findMergeRequestNoteable,
  findSnippetNoteable,
  type NoteableFinder,
} from './parents.js';
import {
  createObjectNote,
  deleteObjectNote,
  getObjectNote,
  listObjectNotes,
  type NoteableAddress,
  updateObjectNote,
} from './service.js';
import type { NoteOrder } from './store.js';

/** Each kind of object: its path under the API and how to find it. */
interface NoteableRoute {
  /** `/projects/:id/issues/:noteable_id` … */
  path: string;
  /** The path parameter that names the object. */
  param: string;
  find: NoteableFinder;
}

const NOTEABLE_ROUTES: readonly NoteableRoute[] = [
  { path: '/projects/:id/issues/:issue_iid', param: 'issue_iid', find: findIssueNoteable },
  {
    path: '/projects/:id/merge_requests/:merge_request_iid',
    param: 'merge_request_iid',
    find: findMergeRequestNoteable,
  },
  { path: '/projects/:id/snippets/:snippet_id', param: 'snippet_id', find: findSnippetNoteable },
  { path: '/groups/:id/epics/:epic_id', param: 'epic_id', find: findEpicNoteable },
];

/** `order_by` and `sort`, whose values the validator has checked (defaults: created_at, desc). */
function orderOf(req: Request): NoteOrder {
  const orderBy = optionalQueryString(req, 'order_by') ?? 'created_at';
  if (orderBy !== 'created_at' && orderBy !== 'updated_at') throw invalidParameter('order_by');
  const sort = optionalQueryString(req, 'sort') ?? 'desc';
  if (sort !== 'asc' && sort !== 'desc') throw invalidParameter('sort');
  return { orderBy, sort };
}

type ListNotes = 'listIssueNotes' | 'listMergeRequestNotes' | 'listSnippetNotes' | 'listEpicNotes';
type GetNote = 'getIssueNote' | 'getMergeRequestNote' | 'getSnippetNote' | 'getEpicNote';
type CreateNote = 'createIssueNote' | 'createMergeRequestNote' | 'createSnippetNote' | 'createEpicNote';
type UpdateNote = 'updateIssueNote' | 'updateMergeRequestNote' | 'updateSnippetNote' | 'updateEpicNote';

export function notesRouter(context: ServerContext): Router {
  const router = Router();

  for (const route of NOTEABLE_ROUTES) {
    const addressOf = (req: Request): NoteableAddress => ({
      find: route.find,
      parent: pathParam(req, 'id'),
      noteableId: integerPathParam(req, route.param),
    });

    router.get(`${route.path}/notes`, async (req, res) => {
      const page = readPage(req);
      const { items, total } = await listObjectNotes(
        context,
        callerOf(res),
        addressOf(req),
        orderOf(req),
        page,
      );
      const body: ResponseBody<ListNotes, 200> = items;
      setPaginationHeaders(req, res, page, total);
      res.json(body);
    });

    router.post(`${route.path}/notes`, async (req, res) => {
      const created = await createObjectNote(
        context,
        callerOf(res),
        addressOf(req),
        req.body as RequestBody<CreateNote>,
        originOf(req),
      );
      const body: ResponseBody<CreateNote, 201> = 'note' in created ? created.note : created.award;
      res.status(201).json(body);
    });

    router.get(`${route.path}/notes/:note_id`, async (req, res) => {
      const note: ResponseBody<GetNote, 200> = await getObjectNote(
        context,
        callerOf(res),
        addressOf(req),
        integerPathParam(req, 'note_id'),
      );
      res.json(note);
    });

    router.put(`${route.path}/notes/:note_id`, async (req, res) => {
      const note: ResponseBody<UpdateNote, 200> = await updateObjectNote(
        context,
        callerOf(res),
        addressOf(req),
        integerPathParam(req, 'note_id'),
        req.body as RequestBody<UpdateNote>,
      );
      res.json(note);
    });

    router.delete(`${route.path}/notes/:note_id`, async (req, res) => {
      await deleteObjectNote(context, callerOf(res), addressOf(req), integerPathParam(req, 'note_id'));
      res.status(204).end();
    });
  }

  return router;
}
