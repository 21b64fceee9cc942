// Personal and project snippets (document 2, 4.5 and 4.6; where the seeds are silent, GitLab v4's
// lib/api/snippets.rb, lib/api/project_snippets.rb, the snippet policies and SnippetsFinder). Who reads and
// changes what is in rules.ts; the files of the requests' two forms in files.ts.

import { type ProjectAccess, projectFullPath, resolveProject } from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, forbidden, notFound } from '../../core/http/errors.js';
import type { RequestBody, Schemas } from '../../core/http/types.js';
import { type Db, nowIso } from '../../core/store/database.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { applyFileActions, changedSingleFile, newFiles, singleFile } from './files.js';
import {
  type ProjectSnippet,
  presentProjectSnippets,
  presentSnippets,
  rawContentOf,
  type Snippet,
} from './present.js';
import {
  mayChangePersonalSnippet,
  mayChangeProjectSnippet,
  mayCreateProjectSnippet,
  mayReadPersonalSnippet,
  mayReadProjectSnippet,
  projectSnippetScope,
} from './rules.js';
import {
  deleteSnippets,
  filesOf,
  findPersonalSnippet,
  findProjectSnippet,
  insertSnippet,
  listAuthoredPersonalSnippets,
  listProjectSnippets,
  listPublicPersonalSnippets,
  replaceFiles,
  type SnippetChanges,
  type SnippetFile,
  type SnippetRow,
  updateSnippet,
} from './store.js';

type CreateRequest = RequestBody<'createSnippet'> | RequestBody<'createProjectSnippet'>;
type UpdateRequest = RequestBody<'updateSnippet'> | RequestBody<'updateProjectSnippet'>;
type UserAgentDetail = Schemas['SnippetUserAgentDetail'];

/** Who sent a creating request, kept for the administrators' user-agent detail. */
export interface RequestClient {
  userAgent: string;
  ipAddress: string;
}

const snippetNotFound = () => notFound('Snippet');

/** GitLab's at_least_one_of for an update (the spec says so too; checked again for the service's callers). */
const UPDATE_FIELDS = ['content', 'description', 'files', 'file_name', 'title', 'visibility'] as const;

/* Shared ----------------------------------------------------------------------------------------- */

function checkTitle(title: string): string {
  if (title.trim() === '') throw new ApiError(400, { error: 'title is empty' });
  return title;
}

/** The files a create gives: exactly one of `content` (with `file_name`) and `files`. */
function filesOfCreate(body: CreateRequest): SnippetFile[] {
  if (body.files !== undefined && body.content !== undefined)
    throw new ApiError(400, { error: 'files, content are mutually exclusive' });
  if (body.files !== undefined) return newFiles(body.files);
  if (body.content === undefined)
    throw new ApiError(400, { error: 'files, content are missing, exactly one parameter must be provided' });
  if (body.file_name === undefined) throw new ApiError(400, { error: 'file_name is missing' });
  return singleFile(body.file_name, body.content);
}

function checkUpdateFields(body: UpdateRequest): void {
  if (!UPDATE_FIELDS.some((field) => body[field] !== undefined))
    throw new ApiError(400, {
      error: `${UPDATE_FIELDS.join(', ')} are missing, at least one parameter must be provided`,
    });
  if (body.files !== undefined && body.content !== undefined)
    throw new ApiError(400, { error: 'files, content are mutually exclusive' });
  if (body.files !== undefined && body.file_name !== undefined)
    throw new ApiError(400, { error: 'files, file_name are mutually exclusive' });
}

/** The new files of an update, or undefined when it leaves them as they are. */
async function filesOfUpdate(
  db: Db,
  row: SnippetRow,
  body: UpdateRequest,
): Promise<SnippetFile[] | undefined> {
  if (body.files === undefined && body.content === undefined && body.file_name === undefined)
    return undefined;
  const current = (await filesOf(db, [row.id])).get(row.id) ?? [];
  if (body.files !== undefined) return applyFileActions(current, body.files);
  return changedSingleFile(current, body.file_name, body.content);
}

function changesOf(body: UpdateRequest): SnippetChanges {
  const changes: SnippetChanges = {};
  if (body.title !== undefined) changes.title = checkTitle(body.title);
  if (body.description !== undefined) changes.description = body.description;
  if (body.visibility !== undefined) changes.visibility = body.visibility;
  return changes;
}

/** Writes an update in one transaction: the snippet's columns, then its files if they change. */
async function writeUpdate(
  context: ServerContext,
  row: SnippetRow,
  changes: SnippetChanges,
  files: SnippetFile[] | undefined,
): Promise<SnippetRow> {
  return context.db.transaction().execute(async (trx) => {
    const updated = await updateSnippet(trx, row.id, changes, nowIso());
    if (files !== undefined) await replaceFiles(trx, row.id, files);
    return updated;
  });
}

async function writeCreate(
  context: ServerContext,
  fields: Omit<Parameters<typeof insertSnippet>[1], 'now'>,
  files: SnippetFile[],
): Promise<SnippetRow> {
  return context.db.transaction().execute(async (trx) => {
    const row = await insertSnippet(trx, { ...fields, now: nowIso() });
    await replaceFiles(trx, row.id, files);
    return row;
  });
}

function userAgentDetailOf(row: SnippetRow): UserAgentDetail {
  return {
    user_agent: row.user_agent,
    ip_address: row.ip_address,
    akismet_submitted: row.akismet_submitted === 1,
  };
}

/** Administrators only: 401 without a token, 403 for anyone else. */
function requireAdmin(caller: Caller): void {
  const user = requireUser(caller);
  requireScope(caller, 'read_api');
  if (!user.isAdmin) throw forbidden();
}

/* Personal snippets ------------------------------------------------------------------------------- */

async function presentOne(context: ServerContext, row: SnippetRow, origin: string): Promise<Snippet> {
  const [snippet] = await presentSnippets(context.db, [row], origin);
  if (!snippet) throw snippetNotFound();
  return snippet;
}

/** The personal snippet the caller may read, or 404. */
async function readableSnippet(context: ServerContext, caller: Caller, id: number): Promise<SnippetRow> {
  const row = await findPersonalSnippet(context.db, id);
  if (!row || !mayReadPersonalSnippet(caller, row)) throw snippetNotFound();
  return row;
}

/** The personal snippet the caller may change: 404 when they may not read it, 403 when only that. */
async function changeableSnippet(context: ServerContext, caller: Caller, id: number): Promise<SnippetRow> {
  const row = await readableSnippet(context, caller, id);
  if (!mayChangePersonalSnippet(caller, row)) throw forbidden();
  return row;
}

export async function listOwnSnippets(
  context: ServerContext,
  caller: Caller,
  window: PageWindow,
  origin: string,
): Promise<Page<Snippet>> {
  const user = requireUser(caller);
  requireScope(caller, 'read_api');
  const page = await listAuthoredPersonalSnippets(context.db, user.id, window);
  return { items: await presentSnippets(context.db, page.items, origin), total: page.total };
}

export async function listPublicSnippets(
  context: ServerContext,
  caller: Caller,
  window: PageWindow,
  origin: string,
): Promise<Page<Snippet>> {
  requireUser(caller);
  requireScope(caller, 'read_api');
  const page = await listPublicPersonalSnippets(context.db, window);
  return { items: await presentSnippets(context.db, page.items, origin), total: page.total };
}

export async function getSnippet(
  context: ServerContext,
  caller: Caller,
  id: number,
  origin: string,
): Promise<Snippet> {
  requireUser(caller);
  requireScope(caller, 'read_api');
  return presentOne(context, await readableSnippet(context, caller, id), origin);
}

/** Public snippets need no token; others are a 404 without one. */
export async function getSnippetRaw(context: ServerContext, caller: Caller, id: number): Promise<string> {
  requireScope(caller, 'read_api');
  return rawContentOf(context.db, await readableSnippet(context, caller, id));
}

export async function createSnippet(
  context: ServerContext,
  caller: Caller,
  body: RequestBody<'createSnippet'>,
  client: RequestClient,
  origin: string,
): Promise<Snippet> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const title = checkTitle(body.title);
  const files = filesOfCreate(body);
  const row = await writeCreate(
    context,
    {
      projectId: null,
      authorId: user.id,
      title,
      description: body.description ?? null,
      visibility: body.visibility ?? 'private',
      userAgent: client.userAgent,
      ipAddress: client.ipAddress,
    },
    files,
  );
  return presentOne(context, row, origin);
}

export async function changeSnippet(
  context: ServerContext,
  caller: Caller,
  id: number,
  body: RequestBody<'updateSnippet'>,
  origin: string,
): Promise<Snippet> {
  requireUser(caller);
  requireScope(caller, 'api');
  checkUpdateFields(body);
  const row = await changeableSnippet(context, caller, id);
  const changes = changesOf(body);
  const files = await filesOfUpdate(context.db, row, body);
  return presentOne(context, await writeUpdate(context, row, changes, files), origin);
}

/** Deletes one snippet with what hangs on it; 404 when a concurrent request deleted it first. */
async function deleteSnippet(context: ServerContext, id: number): Promise<void> {
  const deleted = await context.db.transaction().execute((trx) => deleteSnippets(trx, [id]));
  if (deleted === 0) throw snippetNotFound();
}

export async function removeSnippet(context: ServerContext, caller: Caller, id: number): Promise<void> {
  requireUser(caller);
  requireScope(caller, 'api');
  const row = await changeableSnippet(context, caller, id);
  await deleteSnippet(context, row.id);
}

export async function getSnippetUserAgentDetail(
  context: ServerContext,
  caller: Caller,
  id: number,
): Promise<UserAgentDetail> {
  requireAdmin(caller);
  const row = await findPersonalSnippet(context.db, id);
  if (!row) throw snippetNotFound();
  return userAgentDetailOf(row);
}

/* Project snippets -------------------------------------------------------------------------------- */

/** The project, if the caller sees it (404) and its snippets are switched on (403, GitLab's check_snippets_enabled). */
async function snippetsProject(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
): Promise<ProjectAccess> {
  const access = await resolveProject(context.db, caller, idOrPath);
  if (access.project.snippets_enabled !== 1) throw forbidden();
  return access;
}

async function presentInProject(
  context: ServerContext,
  access: ProjectAccess,
  rows: readonly SnippetRow[],
  origin: string,
): Promise<ProjectSnippet[]> {
  return presentProjectSnippets(context.db, rows, origin, access.project.id, projectFullPath(access));
}

async function presentOneInProject(
  context: ServerContext,
  access: ProjectAccess,
  row: SnippetRow,
  origin: string,
): Promise<ProjectSnippet> {
  const [snippet] = await presentInProject(context, access, [row], origin);
  if (!snippet) throw snippetNotFound();
  return snippet;
}

async function readableProjectSnippet(
  context: ServerContext,
  caller: Caller,
  access: ProjectAccess,
  id: number,
): Promise<SnippetRow> {
  const row = await findProjectSnippet(context.db, access.project.id, id);
  if (!row || !mayReadProjectSnippet(caller, access.accessLevel, row)) throw snippetNotFound();
  return row;
}

/** A project snippet the caller may change: 404 unless readable, 403 in an archived project or without the right. */
async function changeableProjectSnippet(
  context: ServerContext,
  caller: Caller,
  access: ProjectAccess,
  id: number,
): Promise<SnippetRow> {
  const row = await readableProjectSnippet(context, caller, access, id);
  if (access.project.archived === 1 || !mayChangeProjectSnippet(caller, access.accessLevel, row))
    throw forbidden();
  return row;
}

export async function listSnippetsOfProject(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  window: PageWindow,
  origin: string,
): Promise<Page<ProjectSnippet>> {
  requireUser(caller);
  requireScope(caller, 'read_api');
  const access = await snippetsProject(context, caller, idOrPath);
  const page = await listProjectSnippets(
    context.db,
    access.project.id,
    projectSnippetScope(caller, access.accessLevel),
    window,
  );
  return { items: await presentInProject(context, access, page.items, origin), total: page.total };
}

export async function getProjectSnippet(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  id: number,
  origin: string,
): Promise<ProjectSnippet> {
  requireScope(caller, 'read_api');
  const access = await snippetsProject(context, caller, idOrPath);
  return presentOneInProject(
    context,
    access,
    await readableProjectSnippet(context, caller, access, id),
    origin,
  );
}

export async function getProjectSnippetRaw(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  id: number,
): Promise<string> {
  requireScope(caller, 'read_api');
  const access = await snippetsProject(context, caller, idOrPath);
  return rawContentOf(context.db, await readableProjectSnippet(context, caller, access, id));
}

export async function createProjectSnippet(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  body: RequestBody<'createProjectSnippet'>,
  client: RequestClient,
  origin: string,
): Promise<ProjectSnippet> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const access = await snippetsProject(context, caller, idOrPath);
  if (access.project.archived === 1 || !mayCreateProjectSnippet(access.accessLevel)) throw forbidden();
  const title = checkTitle(body.title);
  const files = filesOfCreate(body);
  const row = await writeCreate(
    context,
    {
      projectId: access.project.id,
      authorId: user.id,
      title,
      description: body.description ?? null,
      visibility: body.visibility,
      userAgent: client.userAgent,
      ipAddress: client.ipAddress,
    },
    files,
  );
  return presentOneInProject(context, access, row, origin);
}

export async function changeProjectSnippet(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  id: number,
  body: RequestBody<'updateProjectSnippet'>,
  origin: string,
): Promise<ProjectSnippet> {
  requireUser(caller);
  requireScope(caller, 'api');
  checkUpdateFields(body);
  const access = await snippetsProject(context, caller, idOrPath);
  const row = await changeableProjectSnippet(context, caller, access, id);
  const changes = changesOf(body);
  const files = await filesOfUpdate(context.db, row, body);
  return presentOneInProject(context, access, await writeUpdate(context, row, changes, files), origin);
}

export async function removeProjectSnippet(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  id: number,
): Promise<void> {
  requireUser(caller);
  requireScope(caller, 'api');
  const access = await snippetsProject(context, caller, idOrPath);
  const row = await changeableProjectSnippet(context, caller, access, id);
  await deleteSnippet(context, row.id);
}

export async function getProjectSnippetUserAgentDetail(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  id: number,
): Promise<UserAgentDetail> {
  requireAdmin(caller);
  const access = await snippetsProject(context, caller, idOrPath);
  const row = await findProjectSnippet(context.db, access.project.id, id);
  if (!row) throw snippetNotFound();
  return userAgentDetailOf(row);
}
