// The protected-branch operations (document 1, section 4.3): list, read, protect, unprotect and the
// code-owner option. Which rules match a branch and what they allow lives in branchProtection.ts; the
// commits and branch deletions of the other areas consult it, so a rule made here is enforced there.

import {
  AccessLevel,
  type ProjectAccess,
  projectAccessLevel,
  resolveProjectForSignedIn,
} from '../../core/access/access.js';
import { type Caller, toCallerUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { toBoolean } from '../../core/http/booleans.js';
import {
  ApiError,
  conflict,
  forbidden,
  invalidParameter,
  missingParameter,
  notFound,
} from '../../core/http/errors.js';
import type { RequestBody, Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { isUniqueViolation, nowIso } from '../../core/store/database.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import {
  describeAccessLevel,
  findProtectionRule,
  isAllowed,
  isProtectionAccessLevel,
  isValidBranchPattern,
  type ProtectionAccessLevel,
  type ProtectionAction,
  type ProtectionRule,
  withAccessLevels,
} from './rules.js';
import {
  deleteProtectedBranch,
  findUser,
  groupName,
  insertProtectedBranch,
  isSharedWithGroup,
  pageOfProtectedBranches,
  setAllowForcePush,
  setCodeOwnerApprovalRequired,
} from './store.js';

export type ProtectedBranch = Schemas['ProtectedBranch'];
type ProtectedBranchAccessLevel = Schemas['ProtectedBranchAccessLevel'];
type ProtectBranchRequest = RequestBody<'protectBranch'>;
type UpdateProtectedBranchRequest = RequestBody<'updateProtectedBranch'>;

const ACTIONS: readonly ProtectionAction[] = ['push', 'merge', 'unprotect'];

/** One entry of a rule before it is stored: exactly one of a role, a user or a group. */
type Grant = { accessLevel: ProtectionAccessLevel } | { userId: number } | { groupId: number };

async function requireRule(db: Db, projectId: number, name: string): Promise<ProtectionRule> {
  const rule = await findProtectionRule(db, projectId, name);
  if (!rule) throw notFound('Protected Branch');
  return rule;
}

/** Renders stored entries; users and groups are described by their names, as GitLab does. */
async function presentLevels(
  db: Db,
  rule: ProtectionRule,
  action: ProtectionAction,
): Promise<ProtectedBranchAccessLevel[]> {
  const entries = rule.levels.filter((level) => level.action === action);
  const levels: ProtectedBranchAccessLevel[] = [];
  for (const entry of entries) {
    let description = '';
    if (entry.userId !== null) {
      const user = await findUser(db, entry.userId);
      description = user?.name ?? `User ${entry.userId}`;
    } else if (entry.groupId !== null) {
      description = (await groupName(db, entry.groupId)) ?? `Group ${entry.groupId}`;
    } else if (entry.accessLevel !== null && isProtectionAccessLevel(entry.accessLevel)) {
      description = describeAccessLevel(entry.accessLevel);
    }
    const accessLevel =
      entry.accessLevel !== null && isProtectionAccessLevel(entry.accessLevel) ? entry.accessLevel : null;
    levels.push({
      access_level: accessLevel,
      access_level_description: description,
      user_id: entry.userId,
      group_id: entry.groupId,
    });
  }
  return levels;
}

async function presentRule(db: Db, rule: ProtectionRule): Promise<ProtectedBranch> {
  return {
    id: rule.id,
    name: rule.name,
    push_access_levels: await presentLevels(db, rule, 'push'),
    merge_access_levels: await presentLevels(db, rule, 'merge'),
    unprotect_access_levels: await presentLevels(db, rule, 'unprotect'),
    allow_force_push: rule.allowForcePush,
    // The seed renders this flag as a string.
    code_owner_approval_required: rule.codeOwnerApprovalRequired ? 'true' : 'false',
  };
}

/**
 * `search` keeps the rules whose name contains the term (case-insensitive); rules come in creation order.
 * Only the page's rules are read and presented.
 */
export async function listProtectedBranches(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  search: string | undefined,
  window: PageWindow,
): Promise<Page<ProtectedBranch>> {
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'read_api',
    AccessLevel.MAINTAINER,
  );
  const page = await pageOfProtectedBranches(context.db, project.id, search, window);
  const rules = await withAccessLevels(context.db, page.items);
  return { items: await Promise.all(rules.map((rule) => presentRule(context.db, rule))), total: page.total };
}

export async function getProtectedBranch(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  name: string,
): Promise<ProtectedBranch> {
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'read_api',
    AccessLevel.MAINTAINER,
  );
  return presentRule(context.db, await requireRule(context.db, project.id, name));
}

/** An access level given as a number or, from forms and query strings, a numeric string. */
function parseAccessLevel(value: unknown, field: string): ProtectionAccessLevel | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : Number.NaN;
  if (!isProtectionAccessLevel(number)) throw invalidParameter(field);
  return number;
}

function parseId(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/** The `allowed_to_*` elements: each names exactly one of a user, a group or a role. */
function parseGrants(value: unknown, field: string): Grant[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidParameter(field);
  return value.map((element: unknown, index): Grant => {
    const item = (typeof element === 'object' && element !== null ? element : {}) as Record<string, unknown>;
    const named = ['user_id', 'group_id', 'access_level'].filter((key) => item[key] !== undefined);
    if (named.length !== 1) {
      throw new ApiError(400, {
        error: `${field}[${index}] must have exactly one of user_id, group_id, access_level`,
      });
    }
    if (item.access_level !== undefined) {
      return {
        accessLevel:
          parseAccessLevel(item.access_level, `${field}[${index}][access_level]`) ?? AccessLevel.NO_ACCESS,
      };
    }
    const key = named[0] === 'user_id' ? 'user_id' : 'group_id';
    const id = parseId(item[key]);
    if (id === undefined) throw invalidParameter(`${field}[${index}][${key}]`);
    return key === 'user_id' ? { userId: id } : { groupId: id };
  });
}

/** Why a user or group grant cannot be stored, or undefined when it can. */
async function grantProblem(db: Db, access: ProjectAccess, grant: Grant): Promise<string | undefined> {
  if ('userId' in grant) {
    const row = await findUser(db, grant.userId);
    const level = row
      ? await projectAccessLevel(db, { user: toCallerUser(row), scopes: [] }, access.project)
      : 0;
    return level > AccessLevel.NO_ACCESS ? undefined : `user ${grant.userId} is not a member of this project`;
  }
  if ('groupId' in grant) {
    return (await isSharedWithGroup(db, access.project.id, grant.groupId))
      ? undefined
      : `group ${grant.groupId} is not allowed to access this project (it is not shared with the group)`;
  }
  return undefined;
}

function sameGrant(a: Grant, b: Grant): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function protectBranch(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  body: ProtectBranchRequest,
): Promise<ProtectedBranch> {
  const access = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'api',
    AccessLevel.MAINTAINER,
  );
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (name === '') throw missingParameter('name');
  // The rule an export carries must import again: the same check as the import's (control characters, git's
  // reserved characters, at most 255 characters).
  if (!isValidBranchPattern(name))
    throw new ApiError(422, { message: { name: ['is not a valid branch name or wildcard'] } });
  const request = body as Record<string, unknown>;

  const grants = new Map<ProtectionAction, Grant[]>();
  for (const action of ACTIONS) {
    const role =
      parseAccessLevel(request[`${action}_access_level`], `${action}_access_level`) ?? AccessLevel.MAINTAINER;
    const list: Grant[] = [{ accessLevel: role }];
    for (const grant of parseGrants(request[`allowed_to_${action}`], `allowed_to_${action}`)) {
      if (!list.some((existing) => sameGrant(existing, grant))) list.push(grant);
    }
    grants.set(action, list);
  }

  // Every invalid grant is reported at once, under the field GitLab uses (`push_access_levels` …).
  const problems: Record<string, string[]> = {};
  for (const [action, list] of grants) {
    for (const grant of list) {
      const problem = await grantProblem(context.db, access, grant);
      if (!problem) continue;
      const field = `${action}_access_levels`;
      problems[field] = [...(problems[field] ?? []), problem];
    }
  }
  if (Object.keys(problems).length > 0) throw new ApiError(422, { message: problems });

  const alreadyProtected = (): ApiError => conflict(`Protected branch '${name}' already exists`);
  if (await findProtectionRule(context.db, access.project.id, name)) throw alreadyProtected();
  const codeOwnerApprovalRequired = toBoolean(request.code_owner_approval_required) ?? false;
  const allowForcePush = toBoolean(request.allow_force_push) ?? false;
  try {
    const levels = [...grants].flatMap(([action, list]) =>
      list.map((grant) => ({
        action,
        accessLevel: 'accessLevel' in grant ? grant.accessLevel : null,
        userId: 'userId' in grant ? grant.userId : null,
        groupId: 'groupId' in grant ? grant.groupId : null,
      })),
    );
    await context.db.transaction().execute((trx) =>
      insertProtectedBranch(
        trx,
        {
          projectId: access.project.id,
          name,
          codeOwnerApprovalRequired,
          allowForcePush,
          createdAt: nowIso(),
        },
        levels,
      ),
    );
  } catch (error) {
    // A concurrent request protected the same name between the check and the insert.
    if (isUniqueViolation(error)) throw alreadyProtected();
    throw error;
  }
  return presentRule(context.db, await requireRule(context.db, access.project.id, name));
}

/** Removes a rule. Besides maintainer access, the rule's own unprotect entries must allow the caller. */
export async function unprotectBranch(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  name: string,
): Promise<void> {
  const access = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'api',
    AccessLevel.MAINTAINER,
  );
  const rule = await requireRule(context.db, access.project.id, name);
  if (!(await isAllowed(context.db, caller, access.accessLevel, [rule], 'unprotect'))) {
    throw forbidden('403 Forbidden - You are not allowed to unprotect this branch');
  }
  await deleteProtectedBranch(context.db, rule.id);
}

export async function updateProtectedBranch(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  name: string,
  body: UpdateProtectedBranchRequest | undefined,
): Promise<ProtectedBranch> {
  const access = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'api',
    AccessLevel.MAINTAINER,
  );
  const rule = await requireRule(context.db, access.project.id, name);
  const given = body?.code_owner_approval_required;
  if (given !== undefined) {
    const value = toBoolean(given);
    if (value === undefined) throw invalidParameter('code_owner_approval_required');
    await setCodeOwnerApprovalRequired(context.db, rule.id, value);
  }
  if (body?.allow_force_push !== undefined && body.allow_force_push !== null) {
    const value = toBoolean(body.allow_force_push);
    if (value === undefined) throw invalidParameter('allow_force_push');
    await setAllowForcePush(context.db, rule.id, value);
  }
  return presentRule(context.db, await requireRule(context.db, access.project.id, name));
}
