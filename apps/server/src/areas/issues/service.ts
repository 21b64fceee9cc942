// Project issues (GitLab v4's lib/api/issues.rb, IssuesFinder, Issues::CreateService/UpdateService and the
// issue policies; the seeds leave issues "not shown"). Anyone who may see the project reads its issues,
// except confidential ones, which only their author, their assignees and Reporters and above see. Any
// signed-in user who reads a project's issues may open one; its author, its assignees and Reporters and
// above may change it. Labels, assignees, the due date and the discussion lock are issue metadata: only
// Reporters and above set them, other callers' values are dropped (IssuableBaseService#filter_params).

import {
  AccessLevel,
  type ProjectAccess,
  type ProjectRow,
  projectFullPath,
  resolveProject,
} from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, forbidden, invalidParameter, notFound } from '../../core/http/errors.js';
import type { RequestBody } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { nowIso } from '../../core/store/database.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { multipleIssueAssignees } from '../features/index.js';
import {
  assignableUsers,
  labelNames,
  replaceLabels,
  replaceUsers,
  requestedAssignees,
  updatedLabels,
  usersOf,
} from '../issuables/index.js';
import { issueStateChanged } from './events.js';
import { type Issue, presentIssues } from './present.js';
import {
  type ConfidentialScope,
  deleteIssueRows,
  findIssue,
  type IssueChanges,
  type IssueFilters,
  type IssueOrder,
  type IssueRow,
  insertIssue,
  listIssues,
  updateIssue,
} from './store.js';
import { makeIssueTodos } from './todos.js';

type CreateIssueRequest = RequestBody<'createProjectIssue'>;
type UpdateIssueRequest = RequestBody<'updateProjectIssue'>;

/** The list's filters as read from the query (without the confidentiality, which the caller decides). */
export type IssueListFilters = Omit<IssueFilters, 'readable'>;

const issueNotFound = () => notFound('Issue');

/** The issue parameters of which at least one must be given to an update (GitLab's at_least_one_of). */
const UPDATE_FIELDS = [
  'title',
  'description',
  'assignee_ids',
  'assignee_id',
  'discussion_locked',
  'labels',
  'add_labels',
  'remove_labels',
  'updated_at',
  'due_date',
  'confidential',
  'state_event',
] as const;

function issuesEnabled(project: ProjectRow): boolean {
  return project.issues_enabled === 1;
}

/** Which confidential issues the caller reads: all of them from the Reporter role up, else their own. */
function confidentialScope(caller: Caller, access: ProjectAccess): ConfidentialScope {
  if (access.accessLevel >= AccessLevel.REPORTER) return { all: true };
  return { all: false, userId: caller.user?.id ?? null };
}

function isAuthorOrAssignee(caller: Caller, row: IssueRow, assigneeIds: readonly number[]): boolean {
  const userId = caller.user?.id;
  return userId !== undefined && (row.author_id === userId || assigneeIds.includes(userId));
}

async function assigneeIdsOf(db: Db, row: IssueRow): Promise<number[]> {
  const assignees = await usersOf(db, 'Issue', 'assignee', [row.id]);
  return (assignees.get(row.id) ?? []).map((user) => user.id);
}

/** The issue the caller may read, or 404 (also for a confidential one they may not see). */
async function readableIssue(
  context: ServerContext,
  caller: Caller,
  access: ProjectAccess,
  iid: number,
): Promise<{ row: IssueRow; assigneeIds: number[] }> {
  const row =
    issuesEnabled(access.project) && Number.isSafeInteger(iid)
      ? await findIssue(context.db, access.project.id, iid)
      : undefined;
  if (!row) throw issueNotFound();
  const assigneeIds = await assigneeIdsOf(context.db, row);
  if (
    row.confidential === 1 &&
    !confidentialScope(caller, access).all &&
    !isAuthorOrAssignee(caller, row, assigneeIds)
  )
    throw issueNotFound();
  return { row, assigneeIds };
}

function settingOf(access: ProjectAccess, origin: string) {
  return { projectId: access.project.id, fullPath: projectFullPath(access), origin };
}

async function presentOne(
  context: ServerContext,
  caller: Caller,
  access: ProjectAccess,
  row: IssueRow,
  origin: string,
): Promise<Issue> {
  const [issue] = await presentIssues(context.db, [row], settingOf(access, origin), {
    userId: caller.user?.id ?? null,
  });
  if (!issue) throw issueNotFound();
  return issue;
}

/* Reads ------------------------------------------------------------------------------------------ */

export async function listProjectIssues(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  filters: IssueListFilters,
  order: IssueOrder,
  window: PageWindow,
  origin: string,
): Promise<Page<Issue>> {
  requireScope(caller, 'read_api');
  const access = await resolveProject(context.db, caller, idOrPath);
  // A disabled feature hides the issues (IssuesFinder only searches projects whose issues the caller reads).
  if (!issuesEnabled(access.project)) return { items: [], total: 0 };
  const page = await listIssues(
    context.db,
    access.project.id,
    { ...filters, readable: confidentialScope(caller, access) },
    order,
    window,
  );
  return { items: await presentIssues(context.db, page.items, settingOf(access, origin)), total: page.total };
}

export async function getProjectIssue(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
  origin: string,
): Promise<Issue> {
  requireScope(caller, 'read_api');
  const access = await resolveProject(context.db, caller, idOrPath);
  const { row } = await readableIssue(context, caller, access, iid);
  return presentOne(context, caller, access, row, origin);
}

/**
 * The issue the caller may read, with the project (for the notes area): 404 for a project the caller may not
 * see, a disabled issues feature and a confidential issue they may not see.
 */
export async function findReadableIssue(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
): Promise<{ access: ProjectAccess; issue: IssueRow }> {
  const access = await resolveProject(context.db, caller, idOrPath);
  const { row } = await readableIssue(context, caller, access, iid);
  return { access, issue: row };
}

/* Writes ----------------------------------------------------------------------------------------- */

/** A title that is not only blanks (GitLab's presence validation, in its `message` shape). */
function checkTitle(title: string): string {
  if (title.trim() === '') throw new ApiError(400, { message: { title: ["can't be blank"] } });
  return title;
}

/** A date-time parameter as stored (ISO, UTC); one the schema lets through but no Date holds is a 400. */
function timestamp(name: string, value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw invalidParameter(name);
  return new Date(time).toISOString();
}

/** Whether the caller may give a creation or update date: administrators and the project's owners. */
function maySetTimestamps(caller: Caller, access: ProjectAccess): boolean {
  return caller.user?.isAdmin === true || access.accessLevel >= AccessLevel.OWNER;
}

/** The project, for a write by a signed-in caller with an `api` token; archived projects are read-only. */
async function projectForWrite(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
): Promise<ProjectAccess> {
  const access = await resolveProject(context.db, caller, idOrPath);
  if (access.project.archived === 1) throw forbidden();
  return access;
}

export async function createProjectIssue(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  body: CreateIssueRequest,
  origin: string,
): Promise<Issue> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const access = await projectForWrite(context, caller, idOrPath);
  if (!issuesEnabled(access.project)) throw forbidden();
  const title = checkTitle(body.title);
  const setsMetadata = access.accessLevel >= AccessLevel.REPORTER;
  const labels = setsMetadata && body.labels !== undefined ? labelNames('labels', body.labels) : [];
  const wantedAssignees = setsMetadata ? requestedAssignees(body) : undefined;
  const assignees = wantedAssignees
    ? await assignableUsers(context.db, access.project, wantedAssignees, multipleIssueAssignees(context))
    : [];
  const createdAt =
    body.created_at !== undefined && maySetTimestamps(caller, access)
      ? timestamp('created_at', body.created_at)
      : null;

  const row = await context.db.transaction().execute(async (trx) => {
    const issue = await insertIssue(trx, {
      projectId: access.project.id,
      title,
      description: body.description ?? null,
      authorId: user.id,
      confidential: body.confidential === true,
      discussionLocked: setsMetadata && body.discussion_locked !== undefined ? body.discussion_locked : null,
      dueDate: setsMetadata ? (body.due_date ?? null) : null,
      createdAt,
    });
    await replaceLabels(trx, 'Issue', issue.id, labels);
    await replaceUsers(trx, 'Issue', issue.id, 'assignee', assignees);
    await makeIssueTodos(trx, {
      project: access.project,
      issue,
      authorId: user.id,
      assigneesBefore: [],
      assigneesAfter: assignees,
      descriptionBefore: null,
      closed: false,
    });
    return issue;
  });
  return presentOne(context, caller, access, row, origin);
}

/** The state columns after `state_event` (none when the issue is already in the state asked for). */
function stateChanges(row: IssueRow, event: 'close' | 'reopen' | undefined, userId: number): IssueChanges {
  if (event === 'close' && row.state === 'opened')
    return { state: 'closed', closed_at: nowIso(), closed_by_id: userId };
  if (event === 'reopen' && row.state === 'closed')
    return { state: 'opened', closed_at: null, closed_by_id: null };
  return {};
}

export async function updateProjectIssue(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
  body: UpdateIssueRequest | undefined,
  origin: string,
): Promise<Issue> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const given = body ?? {};
  // Grape checks its parameters before the endpoint looks anything up: 400 before 404 and 403.
  if (!UPDATE_FIELDS.some((field) => given[field] !== undefined))
    throw new ApiError(400, {
      error: `${UPDATE_FIELDS.join(', ')} are missing, at least one parameter must be provided`,
    });
  const access = await resolveProject(context.db, caller, idOrPath);
  const { row, assigneeIds } = await readableIssue(context, caller, access, iid);
  const setsMetadata = access.accessLevel >= AccessLevel.REPORTER;
  if (access.project.archived === 1 || !(setsMetadata || isAuthorOrAssignee(caller, row, assigneeIds)))
    throw forbidden();

  const changes: IssueChanges = { ...stateChanges(row, given.state_event ?? undefined, user.id) };
  if (given.title !== undefined) changes.title = checkTitle(given.title);
  if (given.description !== undefined) changes.description = given.description;
  if (given.confidential !== undefined) changes.confidential = given.confidential ? 1 : 0;
  if (setsMetadata && given.discussion_locked !== undefined)
    changes.discussion_locked = given.discussion_locked ? 1 : 0;
  if (setsMetadata && given.due_date !== undefined)
    changes.due_date = given.due_date === '' ? null : given.due_date;
  if (given.updated_at !== undefined && maySetTimestamps(caller, access))
    changes.updated_at = timestamp('updated_at', given.updated_at);
  const labels = setsMetadata ? await updatedLabels(context.db, 'Issue', row.id, given) : undefined;
  const wantedAssignees = setsMetadata ? requestedAssignees(given) : undefined;
  const assignees = wantedAssignees
    ? await assignableUsers(context.db, access.project, wantedAssignees, multipleIssueAssignees(context))
    : undefined;

  const updated = await context.db.transaction().execute(async (trx) => {
    const issue = await updateIssue(trx, row.id, changes);
    if (labels !== undefined) await replaceLabels(trx, 'Issue', row.id, labels);
    if (assignees !== undefined) await replaceUsers(trx, 'Issue', row.id, 'assignee', assignees);
    await makeIssueTodos(trx, {
      project: access.project,
      issue,
      authorId: user.id,
      assigneesBefore: assigneeIds,
      assigneesAfter: assignees ?? assigneeIds,
      descriptionBefore: row.description,
      closed: changes.state === 'closed',
    });
    // Closing or reopening is recorded (a system note) in the same transaction.
    if (changes.state === 'closed' || changes.state === 'opened')
      await issueStateChanged(context, trx, {
        issueId: issue.id,
        projectId: issue.project_id,
        userId: user.id,
        state: changes.state,
        at: issue.updated_at,
      });
    return issue;
  });
  return presentOne(context, caller, access, updated, origin);
}

/* Deletion --------------------------------------------------------------------------------------- */

/**
 * Deletes an issue with what hangs on it (GitLab's DELETE, Issuable::DestroyService). Only the project's
 * owners and administrators may (`destroy_issue`): 404 for a project the caller cannot see or an unknown
 * issue, 403 for every other caller, a confidential issue they cannot read included (GitLab authorizes on the
 * issue it found), and in a project whose issues are disabled or which is archived.
 */
export async function deleteProjectIssue(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
): Promise<void> {
  requireUser(caller);
  requireScope(caller, 'api');
  const access = await resolveProject(context.db, caller, idOrPath);
  const row = Number.isSafeInteger(iid) ? await findIssue(context.db, access.project.id, iid) : undefined;
  if (!row) throw issueNotFound();
  if (
    access.accessLevel < AccessLevel.OWNER ||
    !issuesEnabled(access.project) ||
    access.project.archived === 1
  )
    throw forbidden();
  await context.db.transaction().execute((trx) => deleteIssueRows(trx, [row.id]));
}
