// The protected-branches area's queries: rules (table protected_branches) and their entries
// (protected_branch_access_levels), and the names, memberships and shares their entries refer to.
import type { Selectable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import { containsIgnoringCase } from '../../core/store/search.js';
import type { ProtectedBranchAccessLevelsTable, ProtectedBranchesTable } from '../../core/store/tables.js';

export type ProtectedBranchRow = Selectable<ProtectedBranchesTable>;
export type AccessLevelRow = Selectable<ProtectedBranchAccessLevelsTable>;

/** One entry of a rule: exactly one of a role, a user or a group is set. */
export interface NewAccessLevel {
  action: 'push' | 'merge' | 'unprotect';
  accessLevel: number | null;
  userId: number | null;
  groupId: number | null;
}

/** The project's rules, by name. */
export function protectedBranchRows(db: Db, projectId: number): Promise<ProtectedBranchRow[]> {
  return db
    .selectFrom('protected_branches')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('name')
    .execute();
}

/** One page of the project's rules in creation order; `search`: names containing it, ignoring case. */
export function pageOfProtectedBranches(
  db: Db,
  projectId: number,
  search: string | undefined,
  window: PageWindow,
): Promise<Page<ProtectedBranchRow>> {
  let filtered = db.selectFrom('protected_branches').where('project_id', '=', projectId);
  if (search) filtered = filtered.where((eb) => containsIgnoringCase(eb.ref('name'), search));
  return readPageOf(db, filtered, (query) => query.selectAll().orderBy('id'), window);
}

/** The entries of these rules, in the order they were made. */
export function accessLevelsOf(db: Db, ruleIds: readonly number[]): Promise<AccessLevelRow[]> {
  return db
    .selectFrom('protected_branch_access_levels')
    .selectAll()
    .where('protected_branch_id', 'in', [...ruleIds])
    .orderBy('id')
    .execute();
}

/** Adds a rule with its entries (in the caller's transaction); returns its ID. */
export async function insertProtectedBranch(
  db: Db,
  rule: {
    projectId: number;
    name: string;
    codeOwnerApprovalRequired: boolean;
    allowForcePush?: boolean;
    createdAt: string;
  },
  levels: readonly NewAccessLevel[],
): Promise<number> {
  const { id } = await db
    .insertInto('protected_branches')
    .values({
      project_id: rule.projectId,
      name: rule.name,
      code_owner_approval_required: rule.codeOwnerApprovalRequired ? 1 : 0,
      allow_force_push: rule.allowForcePush ? 1 : 0,
      created_at: rule.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (levels.length > 0)
    await db
      .insertInto('protected_branch_access_levels')
      .values(
        levels.map((level) => ({
          protected_branch_id: id,
          action: level.action,
          access_level: level.accessLevel,
          user_id: level.userId,
          group_id: level.groupId,
        })),
      )
      .execute();
  return id;
}

/** Removes a rule; its entries go with it (ON DELETE CASCADE). */
export async function deleteProtectedBranch(db: Db, id: number): Promise<void> {
  await db.deleteFrom('protected_branches').where('id', '=', id).execute();
}

export async function setCodeOwnerApprovalRequired(db: Db, id: number, required: boolean): Promise<void> {
  await db
    .updateTable('protected_branches')
    .set({ code_owner_approval_required: required ? 1 : 0 })
    .where('id', '=', id)
    .execute();
}

export async function setAllowForcePush(db: Db, id: number, allowed: boolean): Promise<void> {
  await db
    .updateTable('protected_branches')
    .set({ allow_force_push: allowed ? 1 : 0 })
    .where('id', '=', id)
    .execute();
}

/** A user's row (an entry naming a user), or undefined. */
export function findUser(db: Db, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The name of a group an entry names, or undefined. */
export async function groupName(db: Db, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('groups').select('name').where('id', '=', id).executeTakeFirst();
  return row?.name;
}

/** Whether the project is shared with the group (an entry may only name such a group). */
export async function isSharedWithGroup(db: Db, projectId: number, groupId: number): Promise<boolean> {
  const link = await db
    .selectFrom('project_group_links')
    .select('id')
    .where('project_id', '=', projectId)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return link !== undefined;
}

/** Whether the user is a direct member of one of these groups. */
export async function isMemberOfAnyGroup(
  db: Db,
  userId: number,
  groupIds: readonly number[],
): Promise<boolean> {
  const row = await db
    .selectFrom('members')
    .select('id')
    .where('user_id', '=', userId)
    .where('source_type', '=', 'Group')
    .where('source_id', 'in', [...groupIds])
    .executeTakeFirst();
  return row !== undefined;
}

/** Replaces all rules of the project with these (an import), in the caller's transaction. */
export async function replaceProtectedBranches(
  db: Db,
  projectId: number,
  rules: readonly {
    name: string;
    codeOwnerApprovalRequired: boolean;
    allowForcePush: boolean;
    levels: readonly NewAccessLevel[];
  }[],
  now: string,
): Promise<void> {
  await db.deleteFrom('protected_branches').where('project_id', '=', projectId).execute();
  for (const rule of rules)
    await insertProtectedBranch(
      db,
      {
        projectId,
        name: rule.name,
        codeOwnerApprovalRequired: rule.codeOwnerApprovalRequired,
        allowForcePush: rule.allowForcePush,
        createdAt: now,
      },
      rule.levels,
    );
}
