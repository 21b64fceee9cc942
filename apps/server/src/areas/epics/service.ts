// Epics of groups (document 2, 4.7, higher tier; GitLab's ee/lib/api/epics.rb, EpicsFinder, Epics services
// and the group policy where the seeds say "not shown"). Every call needs a signed-in caller (401), a group
// the caller may see (404, also for a private group of a non-member) and the higher tier (403). Anyone who
// sees the group reads its epics, except confidential ones, which Reporters and above of the epic's group
// read (404 for others). Reporters and above create and change epics; owners delete them.

import { AccessLevel, type GroupAccess, type GroupRow, resolveGroup } from '../../core/access/access.js';
import { type Caller, requireScope, requireUser, type ScopeNeed } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, forbidden, invalidParameter, notFound } from '../../core/http/errors.js';
import type { RequestBody } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { CachedUntilDatabaseChange } from '../../core/store/databaseVersion.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { confidentialEpics, epicsAvailable } from '../features/index.js';
import { labelNames } from '../issuables/index.js';
import { type Epic, type EpicView, presentEpics } from './present.js';
import {
  deleteEpic,
  depthOf,
  type EpicChanges,
  type EpicFilters,
  type EpicOrder,
  type EpicRow,
  findEpicById,
  findEpicByIid,
  hasPublicChild,
  insertEpic,
  isSelfOrAncestor,
  levelsInGroups,
  listEpics,
  refreshDates,
  replaceLabels,
  updateEpic,
} from './store.js';

type CreateEpicRequest = RequestBody<'createEpic'>;
type UpdateEpicRequest = RequestBody<'updateEpic'>;

/** GitLab's limit of nested epics (Epic::MAX_HIERARCHY_DEPTH). */
const MAX_HIERARCHY_DEPTH = 7;

/** The update parameters of which at least one must be given (GitLab's at_least_one_of). */
const UPDATE_FIELDS = [
  'title',
  'description',
  'confidential',
  'labels',
  'start_date_is_fixed',
  'start_date_fixed',
  'due_date_is_fixed',
  'due_date_fixed',
  'state_event',
] as const;

const epicNotFound = () => notFound('Epic');

/* Access ----------------------------------------------------------------------------------------- */

/**
 * The group of an epic call: a signed-in caller (401) whose token has the scope, a group they may see (404),
 * then the higher tier (403), in GitLab's order (authenticate!, then the group, then the feature).
 */
export async function epicGroup(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  scope: ScopeNeed,
): Promise<GroupAccess> {
  requireUser(caller);
  requireScope(caller, scope);
  const access = await resolveGroup(context.db, caller, idOrPath);
  if (!epicsAvailable(context)) throw forbidden();
  return access;
}

/** Whether a caller with this level in an epic's group reads its confidential epics and edits epics there. */
function isReporter(level: number): boolean {
  return level >= AccessLevel.REPORTER;
}

/** An epic the caller may read in the group: 404 for an unknown one and for a confidential one they may not see. */
export function readableEpic(access: GroupAccess, row: EpicRow | undefined): EpicRow {
  if (!row || row.group_id !== access.group.id) throw epicNotFound();
  if (row.confidential === 1 && !isReporter(access.accessLevel)) throw epicNotFound();
  return row;
}

async function epicByIid(context: ServerContext, access: GroupAccess, iid: number): Promise<EpicRow> {
  const row = Number.isSafeInteger(iid) ? await findEpicByIid(context.db, access.group.id, iid) : undefined;
  return readableEpic(access, row);
}

function confidentialEpicsEnabled(db: Db, group: GroupRow): Promise<boolean> {
  return confidentialEpics({ db }, group.id);
}

/** How one epic of the group is shown to the caller (single reads and writes). */
function singleView(access: GroupAccess, caller: Caller, origin: string): EpicView {
  return {
    requestedGroup: { id: access.group.id, fullPath: access.group.full_path },
    origin,
    canEdit: () => isReporter(access.accessLevel),
    subscribedFor: caller.user?.id,
  };
}

async function presentOne(db: Db, row: EpicRow, view: EpicView): Promise<Epic> {
  const [epic] = await presentEpics(db, [row], view);
  if (!epic) throw epicNotFound();
  return epic;
}

/* Reads ------------------------------------------------------------------------------------------ */

export interface EpicListQuery {
  filters: Omit<EpicFilters, 'reaction'>;
  reaction?: NonNullable<EpicFilters['reaction']>['filter'];
  order: EpicOrder;
  includeAncestorGroups: boolean;
  includeDescendantGroups: boolean;
  withLabelDetails: boolean;
}

/**
 * Presented pages of epics, kept until the database changes: a page (its query, the caller's levels in its
 * groups, its labels, votes, authors and group paths) is read from the database alone, so a list polled
 * between two writes reads nothing but the group's access. Shared between requests: never modified.
 */
const presentedPages = new CachedUntilDatabaseChange<Page<Epic>>(200);

export async function listGroupEpics(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  query: EpicListQuery,
  window: PageWindow,
  origin: string,
): Promise<Page<Epic>> {
  const access = await epicGroup(context, caller, idOrPath, 'read_api');
  const user = requireUser(caller);
  // Everything the page depends on besides the database: the group, who reads it, how and from where.
  const key = JSON.stringify([
    access.group.id,
    access.group.full_path,
    user.id,
    user.isAdmin,
    query,
    window,
    origin,
  ]);
  return presentedPages.get(context.db, key, async () => {
    const reader = user.isAdmin ? ({ admin: true } as const) : ({ admin: false, userId: user.id } as const);
    const filters: EpicFilters = { ...query.filters };
    if (query.reaction) filters.reaction = { userId: user.id, filter: query.reaction };
    const page = await listEpics(
      context.db,
      {
        groupId: access.group.id,
        ancestors: query.includeAncestorGroups,
        descendants: query.includeDescendantGroups,
      },
      reader,
      AccessLevel.REPORTER,
      filters,
      query.order,
      window,
    );
    // The caller's level in each group of the page decides whether the date fields are shown.
    const levels = user.isAdmin
      ? undefined
      : await levelsInGroups(
          context.db,
          user.id,
          page.items.map((row) => row.group_id),
        );
    const items = await presentEpics(context.db, page.items, {
      requestedGroup: { id: access.group.id, fullPath: access.group.full_path },
      origin,
      canEdit: (groupId) => user.isAdmin || isReporter(levels?.get(groupId) ?? 0),
      withLabelDetails: query.withLabelDetails,
    });
    return { items, total: page.total };
  });
}

export async function getGroupEpic(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
  origin: string,
): Promise<Epic> {
  const access = await epicGroup(context, caller, idOrPath, 'read_api');
  const row = await epicByIid(context, access, iid);
  return presentOne(context.db, row, singleView(access, caller, origin));
}

/* Writes ----------------------------------------------------------------------------------------- */

/** A title that is not only blanks (GitLab's presence validation, in its `message` shape). */
function checkTitle(title: string): string {
  if (title.trim() === '') throw new ApiError(400, { message: { title: ["can't be blank"] } });
  return title;
}

/** A `YYYY-MM-DD` date that exists (the schema checks the shape; 2026-02-30 is a 400 here). */
function checkDate(name: string, value: string): string {
  const time = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) throw invalidParameter(name);
  return value;
}

function validationError(field: string, message: string): ApiError {
  return new ApiError(400, { message: { [field]: [message] } });
}

/**
 * The parent of a new epic (`parent_id`, an epic's global ID, as a number or its digits): an epic the caller
 * may read and edit, in the new epic's group or an ancestor of it, not past the depth limit.
 */
async function parentFor(
  context: ServerContext,
  caller: Caller,
  access: GroupAccess,
  given: number | string,
): Promise<EpicRow> {
  const id =
    typeof given === 'number' ? given : /^\d+$/.test(given.trim()) ? Number(given.trim()) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw invalidParameter('parent_id');
  const parent = await findEpicById(context.db, id);
  const user = requireUser(caller);
  const level = parent
    ? user.isAdmin
      ? AccessLevel.ADMIN
      : ((await levelsInGroups(context.db, user.id, [parent.group_id])).get(parent.group_id) ?? 0)
    : 0;
  // An epic the caller may not see reads as one that does not exist.
  if (!parent || (parent.confidential === 1 && !isReporter(level))) throw notFound('Parent epic');
  if (!(await isSelfOrAncestor(context.db, access.group.id, parent.group_id)))
    throw validationError(
      'parent',
      'This epic cannot be added. An epic must belong to the same group or subgroup as its parent epic.',
    );
  if (!isReporter(level)) throw forbidden();
  if ((await depthOf(context.db, parent)) >= MAX_HIERARCHY_DEPTH)
    throw validationError(
      'parent',
      `This epic cannot be added. One or more epics would exceed the maximum depth (${MAX_HIERARCHY_DEPTH}) from its most distant ancestor.`,
    );
  return parent;
}

export async function createGroupEpic(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  body: CreateEpicRequest,
  origin: string,
): Promise<Epic> {
  const user = requireUser(caller);
  const access = await epicGroup(context, caller, idOrPath, 'api');
  if (!isReporter(access.accessLevel)) throw forbidden();
  const title = checkTitle(body.title);
  const labels = body.labels !== undefined ? labelNames('labels', body.labels) : [];
  const startDateFixed =
    body.start_date_fixed !== undefined ? checkDate('start_date_fixed', body.start_date_fixed) : null;
  const dueDateFixed =
    body.due_date_fixed !== undefined ? checkDate('due_date_fixed', body.due_date_fixed) : null;
  const parent =
    body.parent_id !== undefined ? await parentFor(context, caller, access, body.parent_id) : undefined;
  // Off, the confidential switch drops the parameter; a child takes its parent's confidentiality unless
  // told otherwise, and a confidential parent takes only confidential children.
  const confidentialGiven = (await confidentialEpicsEnabled(context.db, access.group))
    ? body.confidential
    : undefined;
  const confidential = confidentialGiven ?? parent?.confidential === 1;
  if (parent?.confidential === 1 && !confidential)
    throw validationError(
      'confidential',
      'A non-confidential epic cannot be assigned to a confidential parent epic',
    );

  const row = await context.db.transaction().execute(async (trx) => {
    const epic = await insertEpic(trx, {
      groupId: access.group.id,
      parentId: parent?.id ?? null,
      title,
      description: body.description ?? null,
      confidential,
      authorId: user.id,
      startDateIsFixed: body.start_date_is_fixed === true,
      startDateFixed,
      dueDateIsFixed: body.due_date_is_fixed === true,
      dueDateFixed,
    });
    await replaceLabels(trx, epic.id, labels);
    await refreshDates(trx, epic.parent_id);
    return epic;
  });
  return presentOne(context.db, row, singleView(access, caller, origin));
}

/** Told, inside the writing transaction, when an epic is closed or reopened (system notes). */
export interface EpicStateChange {
  /** The writing transaction: what the listener writes commits or rolls back with the change. */
  db: Db;
  epic: EpicRow;
  state: 'opened' | 'closed';
  userId: number;
  at: string;
}

export type EpicStateListener = (change: EpicStateChange) => Promise<void>;

const stateListeners = new WeakMap<ServerContext, EpicStateListener[]>();

/** Registers a listener of a server's epic state changes (another area, from its router or jobs set-up). */
export function onEpicStateChange(context: ServerContext, listener: EpicStateListener): void {
  const listeners = stateListeners.get(context) ?? [];
  listeners.push(listener);
  stateListeners.set(context, listeners);
}

/** The state columns after `state_event` (none when the epic is already in the state asked for). */
function stateChanges(
  row: EpicRow,
  event: 'close' | 'reopen' | undefined,
  userId: number,
  at: string,
): EpicChanges {
  if (event === 'close' && row.state === 'opened')
    return { state: 'closed', closed_at: at, closed_by_id: userId };
  if (event === 'reopen' && row.state === 'closed')
    return { state: 'opened', closed_at: null, closed_by_id: null };
  return {};
}

export async function updateGroupEpic(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
  body: UpdateEpicRequest | undefined,
  origin: string,
): Promise<Epic> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const given = body ?? {};
  // Grape checks its parameters before the endpoint looks anything up: 400 before 404 and 403.
  if (!UPDATE_FIELDS.some((field) => given[field] !== undefined))
    throw new ApiError(400, {
      error: `${UPDATE_FIELDS.join(', ')} are missing, at least one parameter must be provided`,
    });
  const access = await epicGroup(context, caller, idOrPath, 'api');
  const row = await epicByIid(context, access, iid);
  if (!isReporter(access.accessLevel)) throw forbidden();

  const at = new Date().toISOString();
  const changes: EpicChanges = { ...stateChanges(row, given.state_event ?? undefined, user.id, at) };
  if (given.title !== undefined) changes.title = checkTitle(given.title);
  if (given.description !== undefined) changes.description = given.description;
  if (given.start_date_is_fixed !== undefined)
    changes.start_date_is_fixed = given.start_date_is_fixed ? 1 : 0;
  if (given.start_date_fixed !== undefined)
    changes.start_date_fixed = checkDate('start_date_fixed', given.start_date_fixed);
  if (given.due_date_is_fixed !== undefined) changes.due_date_is_fixed = given.due_date_is_fixed ? 1 : 0;
  if (given.due_date_fixed !== undefined)
    changes.due_date_fixed = checkDate('due_date_fixed', given.due_date_fixed);
  if (
    given.confidential !== undefined &&
    given.confidential !== (row.confidential === 1) &&
    (await confidentialEpicsEnabled(context.db, access.group))
  ) {
    if (given.confidential && (await hasPublicChild(context.db, row.id)))
      throw validationError(
        'confidential',
        'Cannot make the epic confidential if it contains non-confidential issues or child epics',
      );
    const parent = row.parent_id === null ? undefined : await findEpicById(context.db, row.parent_id);
    if (!given.confidential && parent?.confidential === 1)
      throw validationError(
        'confidential',
        'A non-confidential epic cannot be assigned to a confidential parent epic',
      );
    changes.confidential = given.confidential ? 1 : 0;
  }
  const labels = given.labels !== undefined ? labelNames('labels', given.labels) : undefined;
  const listeners = stateListeners.get(context) ?? [];

  const updated = await context.db.transaction().execute(async (trx) => {
    let epic = await updateEpic(trx, row.id, changes);
    if (labels !== undefined) await replaceLabels(trx, row.id, labels);
    await refreshDates(trx, row.id);
    epic = (await findEpicById(trx, row.id)) ?? epic;
    if (changes.state !== undefined) {
      const state = changes.state === 'closed' ? 'closed' : 'opened';
      for (const listener of listeners) await listener({ db: trx, epic, state, userId: user.id, at });
    }
    return epic;
  });
  return presentOne(context.db, updated, singleView(access, caller, origin));
}

export async function deleteGroupEpic(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
): Promise<void> {
  const access = await epicGroup(context, caller, idOrPath, 'api');
  const row = await epicByIid(context, access, iid);
  if (access.accessLevel < AccessLevel.OWNER) throw forbidden();
  await context.db.transaction().execute(async (trx) => {
    await deleteEpic(trx, row.id);
    await refreshDates(trx, row.parent_id);
  });
}

/* For other areas -------------------------------------------------------------------------------- */

/** An epic another area acts on (notes), with the group it was reached through and the caller's level. */
export interface ReadableEpic {
  epic: EpicRow;
  group: GroupRow;
  /** The caller's level in the epic's group: Reporters and above may edit the epic. */
  accessLevel: number;
}

/**
 * The epic with this global ID in the group (by ID or full path) that the caller may read, with the rules
 * of every epic call: 401 without a signed-in caller, 404 for a group they may not see, 403 without the
 * higher tier, then 404 for an epic of another group, an unknown one or a confidential one they may not see.
 */
export async function findReadableEpic(
  context: ServerContext,
  caller: Caller,
  groupIdOrPath: string,
  epicId: number,
  scope: ScopeNeed = 'read_api',
): Promise<ReadableEpic> {
  const access = await epicGroup(context, caller, groupIdOrPath, scope);
  const row = Number.isSafeInteger(epicId) ? await findEpicById(context.db, epicId) : undefined;
  return { epic: readableEpic(access, row), group: access.group, accessLevel: access.accessLevel };
}
