// Group labels (document 2, section 4.8; GitLab's lib/api/group_labels.rb and label_helpers.rb). Every
// operation needs a signed-in caller (GitLab authenticates them all) who can see the group (404 otherwise).
// Reads look among the labels of the group and, unless include_ancestor_groups=false, of its ancestors;
// updates and deletions only among the group's own. Reporters and above create, change and delete labels
// (GitLab's admin_label); any reader subscribes. A name is unique among the labels the group sees (409 on
// create), has no comma and at most 255 characters; a colour is `#RRGGBB` or a CSS colour name, stored as hex.
import {
  AccessLevel,
  type GroupAccess,
  groupChain,
  resolveGroupForSignedIn,
} from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, conflict, notFound } from '../../core/http/errors.js';
import type { RequestBody } from '../../core/http/types.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { labelColor } from './colors.js';
import { type GroupLabel, presentLabel } from './present.js';
import {
  countsByTitle,
  deleteLabel,
  findLabel,
  insertLabel,
  type LabelChanges,
  type LabelRow,
  listLabels,
  subscribe,
  subscribedLabelIds,
  titleTaken,
  unsubscribe,
  updateLabel,
} from './store.js';

type CreateRequest = RequestBody<'createGroupLabel'>;
/**
 * The fields of an update (updateGroupLabel, and updateGroupLabelByName besides its `name`). The generated
 * type is a union of the "at least one of" branches, which hides the optional fields: read them as one.
 */
type UpdateRequest = Partial<Record<'new_name' | 'color' | 'description', string>>;
export type UpdateLabelBody = RequestBody<'updateGroupLabel'> | RequestBody<'updateGroupLabelByName'>;

const labelNotFound = () => notFound('Label');
const invalid = (field: string, message: string) => new ApiError(400, { message: { [field]: [message] } });

/** The groups whose labels a read sees: the group, and its ancestors (nearest first) unless told otherwise. */
async function labelGroups(
  context: ServerContext,
  access: GroupAccess,
  includeAncestors: boolean,
): Promise<number[]> {
  if (!includeAncestors) return [access.group.id];
  return (await groupChain(context.db, access.group.id)).map((group) => group.id);
}

function readAccess(context: ServerContext, caller: Caller, idOrPath: string): Promise<GroupAccess> {
  return resolveGroupForSignedIn(context.db, caller, idOrPath, 'read_api', 0);
}

function writeAccess(context: ServerContext, caller: Caller, idOrPath: string): Promise<GroupAccess> {
  return resolveGroupForSignedIn(context.db, caller, idOrPath, 'api', AccessLevel.REPORTER);
}

async function requireLabel(
  context: ServerContext,
  groupIds: readonly number[],
  idOrTitle: string,
): Promise<LabelRow> {
  const label = await findLabel(context.db, groupIds, idOrTitle);
  if (!label) throw labelNotFound();
  return label;
}

async function presentOne(context: ServerContext, caller: Caller, row: LabelRow): Promise<GroupLabel> {
  const userId = caller.user?.id ?? 0;
  return presentLabel(row, (await subscribedLabelIds(context.db, userId, [row.id])).has(row.id));
}

/** A title as stored: trimmed, not blank, no comma, at most 255 characters (GitLab's Label validations). */
function checkedTitle(value: string): string {
  const title = value.trim();
  if (title === '') throw invalid('title', "can't be blank");
  if (title.includes(',')) throw invalid('title', 'is invalid');
  if ([...title].length > 255) throw invalid('title', 'is too long (maximum is 255 characters)');
  return title;
}

function checkedColor(value: string): string {
  const color = labelColor(value);
  if (color === undefined) throw invalid('color', 'must be a valid color code');
  return color;
}

export async function listGroupLabels(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  options: { withCounts: boolean; includeAncestors: boolean },
  window: PageWindow,
): Promise<Page<GroupLabel>> {
  const access = await readAccess(context, caller, idOrPath);
  const groupIds = await labelGroups(context, access, options.includeAncestors);
  const page = await listLabels(context.db, groupIds, window);
  const subscribed = await subscribedLabelIds(
    context.db,
    caller.user?.id ?? 0,
    page.items.map((row) => row.id),
  );
  // Counted in the requested group's projects, as the caller sees them: members see every project of the
  // group, others its public and internal ones; confidential issues count for Reporters and above.
  const counts = options.withCounts
    ? await countsByTitle(
        context.db,
        page.items.map((row) => row.title),
        {
          groupId: access.group.id,
          visibleProjectsOnly: access.accessLevel < AccessLevel.GUEST,
          confidentialIssues: access.accessLevel >= AccessLevel.REPORTER,
        },
      )
    : undefined;
  return {
    items: page.items.map((row) => presentLabel(row, subscribed.has(row.id), counts?.get(row.title))),
    total: page.total,
  };
}

export async function getGroupLabel(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  idOrTitle: string,
  includeAncestors: boolean,
): Promise<GroupLabel> {
  const access = await readAccess(context, caller, idOrPath);
  const label = await requireLabel(context, await labelGroups(context, access, includeAncestors), idOrTitle);
  return presentOne(context, caller, label);
}

export async function createGroupLabel(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  body: CreateRequest,
): Promise<GroupLabel> {
  const access = await writeAccess(context, caller, idOrPath);
  const title = checkedTitle(body.name);
  const color = checkedColor(body.color);
  const groupIds = await labelGroups(context, access, true);
  const row = await context.db.transaction().execute(async (trx) => {
    // The same name among the labels the group sees (its ancestors' too) is a conflict (GitLab's 409).
    if (await titleTaken(trx, groupIds, title)) throw conflict('Label already exists');
    return insertLabel(trx, {
      groupId: access.group.id,
      title,
      color,
      description: body.description ?? null,
    });
  });
  return presentOne(context, caller, row);
}

/** Grape's at_least_one_of, checked before anything is looked up. */
function requireSomeChange(request: UpdateLabelBody | undefined): UpdateRequest {
  const body = request as UpdateRequest | undefined;
  if (body?.new_name === undefined && body?.color === undefined && body?.description === undefined)
    throw new ApiError(400, {
      error: 'new_name, color, description are missing, at least one parameter must be provided',
    });
  return body;
}

export async function updateGroupLabel(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  idOrTitle: string,
  body: UpdateLabelBody | undefined,
): Promise<GroupLabel> {
  const given = requireSomeChange(body);
  const access = await writeAccess(context, caller, idOrPath);
  const changes: LabelChanges = {};
  if (given.new_name !== undefined) changes.title = checkedTitle(given.new_name);
  if (given.color !== undefined) changes.color = checkedColor(given.color);
  if (given.description !== undefined) changes.description = given.description;
  const groupIds = await labelGroups(context, access, true);
  const row = await context.db.transaction().execute(async (trx) => {
    const label = await findLabel(trx, [access.group.id], idOrTitle);
    if (!label) throw labelNotFound();
    if (changes.title !== undefined && changes.title !== label.title) {
      if (await titleTaken(trx, groupIds, changes.title, label.id))
        throw invalid('title', 'has already been taken');
    }
    return updateLabel(trx, label.id, changes);
  });
  return presentOne(context, caller, row);
}

export async function deleteGroupLabel(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  idOrTitle: string,
): Promise<void> {
  const access = await writeAccess(context, caller, idOrPath);
  await context.db.transaction().execute(async (trx) => {
    const label = await findLabel(trx, [access.group.id], idOrTitle);
    if (!label) throw labelNotFound();
    await deleteLabel(trx, label.id);
  });
}

/**
 * Subscribes or unsubscribes the caller; undefined when the caller is already in that state (the 304).
 * The label is looked for among the group's and its ancestors' labels, as a read.
 */
export async function setLabelSubscription(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  idOrTitle: string,
  wanted: boolean,
): Promise<GroupLabel | undefined> {
  const access = await resolveGroupForSignedIn(context.db, caller, idOrPath, 'api', 0);
  const userId = caller.user?.id ?? 0;
  const label = await requireLabel(context, await labelGroups(context, access, true), idOrTitle);
  const changed = await context.db.transaction().execute(async (trx) => {
    const subscribed = (await subscribedLabelIds(trx, userId, [label.id])).has(label.id);
    if (subscribed === wanted) return false;
    if (wanted) await subscribe(trx, userId, label.id);
    else await unsubscribe(trx, userId, label.id);
    return true;
  });
  return changed ? presentLabel(label, wanted) : undefined;
}
