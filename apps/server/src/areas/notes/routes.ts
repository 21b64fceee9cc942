// Routes of the notes area: the same five operations on the notes of issues, merge requests, project
// snippets and epics. Read the request, call the service, send.

import type { Response } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { invalidParameter } from '../../core/http/errors.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { integerPathParam, optionalQueryString, originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody } from '../../core/http/types.js';
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

/** Each kind of object: the path parameter that names it and how to find it. */
interface Noteable {
  param: string;
  find: NoteableFinder;
}

const ISSUE: Noteable = { param: 'issue_iid', find: findIssueNoteable };
const MERGE_REQUEST: Noteable = { param: 'merge_request_iid', find: findMergeRequestNoteable };
const SNIPPET: Noteable = { param: 'snippet_id', find: findSnippetNoteable };
const EPIC: Noteable = { param: 'epic_id', find: findEpicNoteable };

/** `order_by` and `sort`, whose values the validator has checked (defaults: created_at, desc). */
function orderOf(req: ApiRequest): NoteOrder {
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

export function notesHandlers(context: ServerContext): OperationHandlers {
  const addressOf = (route: Noteable, req: ApiRequest): NoteableAddress => ({
    find: route.find,
    parent: pathParam(req, 'id'),
    noteableId: integerPathParam(req, route.param),
  });

  const list = async (route: Noteable, req: ApiRequest, res: Response) => {
    const page = readPage(req);
    const { items, total } = await listObjectNotes(
      context,
      callerOf(res),
      addressOf(route, req),
      orderOf(req),
      page,
    );
    const body: ResponseBody<ListNotes, 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };

  const create = async (route: Noteable, req: ApiRequest, res: Response) => {
    const created = await createObjectNote(
      context,
      callerOf(res),
      addressOf(route, req),
      req.body as RequestBody<CreateNote>,
      originOf(req),
    );
    const body: ResponseBody<CreateNote, 201> = 'note' in created ? created.note : created.award;
    res.status(201).json(body);
  };

  const get = async (route: Noteable, req: ApiRequest, res: Response) => {
    const note: ResponseBody<GetNote, 200> = await getObjectNote(
      context,
      callerOf(res),
      addressOf(route, req),
      integerPathParam(req, 'note_id'),
    );
    res.json(note);
  };

  const update = async (route: Noteable, req: ApiRequest, res: Response) => {
    const note: ResponseBody<UpdateNote, 200> = await updateObjectNote(
      context,
      callerOf(res),
      addressOf(route, req),
      integerPathParam(req, 'note_id'),
      req.body as RequestBody<UpdateNote>,
    );
    res.json(note);
  };

  const remove = async (route: Noteable, req: ApiRequest, res: Response) => {
    await deleteObjectNote(context, callerOf(res), addressOf(route, req), integerPathParam(req, 'note_id'));
    res.status(204).end();
  };

  return {
    listIssueNotes: (req, res) => list(ISSUE, req, res),
    createIssueNote: (req, res) => create(ISSUE, req, res),
    getIssueNote: (req, res) => get(ISSUE, req, res),
    updateIssueNote: (req, res) => update(ISSUE, req, res),
    deleteIssueNote: (req, res) => remove(ISSUE, req, res),
    listMergeRequestNotes: (req, res) => list(MERGE_REQUEST, req, res),
    createMergeRequestNote: (req, res) => create(MERGE_REQUEST, req, res),
    getMergeRequestNote: (req, res) => get(MERGE_REQUEST, req, res),
    updateMergeRequestNote: (req, res) => update(MERGE_REQUEST, req, res),
    deleteMergeRequestNote: (req, res) => remove(MERGE_REQUEST, req, res),
    listSnippetNotes: (req, res) => list(SNIPPET, req, res),
    createSnippetNote: (req, res) => create(SNIPPET, req, res),
    getSnippetNote: (req, res) => get(SNIPPET, req, res),
    updateSnippetNote: (req, res) => update(SNIPPET, req, res),
    deleteSnippetNote: (req, res) => remove(SNIPPET, req, res),
    listEpicNotes: (req, res) => list(EPIC, req, res),
    createEpicNote: (req, res) => create(EPIC, req, res),
    getEpicNote: (req, res) => get(EPIC, req, res),
    updateEpicNote: (req, res) => update(EPIC, req, res),
    deleteEpicNote: (req, res) => remove(EPIC, req, res),
  };
}
