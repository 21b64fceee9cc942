// Which protected-branch rules match a branch, and what they allow a caller to do there.

import { AccessLevel, groupChain } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { Db } from '../../core/store/database.js';
import { CachedUntilDatabaseChange } from '../../core/store/databaseVersion.js';
import { accessLevelsOf, isMemberOfAnyGroup, type ProtectedBranchRow, protectedBranchRows } from './store.js';

export type ProtectionAction = 'push' | 'merge' | 'unprotect';

export interface ProtectionRule {
  id: number;
  name: string;
  codeOwnerApprovalRequired: boolean;
  /** Whether force pushes are allowed (GitLab's `allow_force_push`; shown, not enforced: no push here). */
  allowForcePush: boolean;
  createdAt: string;
  levels: {
    action: ProtectionAction;
    accessLevel: number | null;
    userId: number | null;
    groupId: number | null;
  }[];
}

/**
 * Whether `name` is a valid protected-branch name: a git branch name in which `*` may stand for any run of
 * characters (git's check-ref-format rules, with `*` allowed).
 */
export function isValidBranchPattern(name: string): boolean {
  // Characters as GitLab and the spec's maxLength count them: code points, not UTF-16 units.
  if (name.length === 0 || [...name].length > 255 || name === '@') return false;
  // Control characters and space, then the characters git reserves for revision syntax.
  if ([...name].some((char) => char.charCodeAt(0) <= 0x20 || char.charCodeAt(0) === 0x7f)) return false;
  if (/[~^:?[\\]/.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  return name.split('/').every((part) => !part.startsWith('.') && !part.endsWith('.lock'));
}

/** `*` in a rule matches any run of characters (including `/`), like GitLab's wildcard protected branches. */
export function ruleMatches(ruleName: string, branch: string): boolean {
  if (!ruleName.includes('*')) return ruleName === branch;
  return wildcardPattern(ruleName).test(branch);
}

// Every branch of a listed page is matched against every rule: each wildcard is compiled once (bounded).
const wildcardPatterns = new Map<string, RegExp>();

function wildcardPattern(ruleName: string): RegExp {
  let pattern = wildcardPatterns.get(ruleName);
  if (!pattern) {
    const source = ruleName
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    pattern = new RegExp(`^${source}$`);
    if (wildcardPatterns.size >= 1000) wildcardPatterns.clear();
    wildcardPatterns.set(ruleName, pattern);
  }
  return pattern;
}

/** The levels a protection entry may name: 0 no one, 30 developers, 40 maintainers, 60 administrators. */
export const PROTECTION_ACCESS_LEVELS = [
  AccessLevel.NO_ACCESS,
  AccessLevel.DEVELOPER,
  AccessLevel.MAINTAINER,
  AccessLevel.ADMIN,
] as const;
export type ProtectionAccessLevel = (typeof PROTECTION_ACCESS_LEVELS)[number];

export function isProtectionAccessLevel(value: number): value is ProtectionAccessLevel {
  return (PROTECTION_ACCESS_LEVELS as readonly number[]).includes(value);
}

/** How a role entry reads in `access_level_description` (GitLab's wording). */
export function describeAccessLevel(level: ProtectionAccessLevel): string {
  switch (level) {
    case AccessLevel.NO_ACCESS:
      return 'No one';
    case AccessLevel.DEVELOPER:
      return 'Developers + Maintainers';
    case AccessLevel.MAINTAINER:
      return 'Maintainers';
    case AccessLevel.ADMIN:
      return 'Administrators';
  }
}

// Read on every branch listing and commit; they change only with the database.
const protectionRulesCache = new CachedUntilDatabaseChange<ProtectionRule[]>(1000);

/** The project's protection rules, by name (shared between requests: do not modify). */
export function loadProtectionRules(db: Db, projectId: number): Promise<ProtectionRule[]> {
  return protectionRulesCache.get(db, String(projectId), () => readProtectionRules(db, projectId));
}

async function readProtectionRules(db: Db, projectId: number): Promise<ProtectionRule[]> {
  return withAccessLevels(db, await protectedBranchRows(db, projectId));
}

/** The rules of these rows of `protected_branches`, with their access levels (one query for all). */
export async function withAccessLevels(
  db: Db,
  rows: readonly ProtectedBranchRow[],
): Promise<ProtectionRule[]> {
  if (rows.length === 0) return [];
  const levels = await accessLevelsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((rule) => ({
    id: rule.id,
    name: rule.name,
    codeOwnerApprovalRequired: rule.code_owner_approval_required === 1,
    allowForcePush: rule.allow_force_push === 1,
    createdAt: rule.created_at,
    levels: levels
      .filter((l) => l.protected_branch_id === rule.id)
      .map((l) => ({
        action: l.action as ProtectionAction,
        accessLevel: l.access_level,
        userId: l.user_id,
        groupId: l.group_id,
      })),
  }));
}

/** The rule protecting exactly this name or wildcard (not the rules that merely match it). */
export async function findProtectionRule(
  db: Db,
  projectId: number,
  name: string,
): Promise<ProtectionRule | undefined> {
  return (await loadProtectionRules(db, projectId)).find((rule) => rule.name === name);
}

export function matchingRules(rules: readonly ProtectionRule[], branch: string): ProtectionRule[] {
  return rules.filter((rule) => ruleMatches(rule.name, branch));
}

/**
 * Whether the caller may do `action` on a branch matched by `rules`. Unprotected branches allow developers.
 * On a protected branch one matching entry must allow the caller: a role (0 = no one, 60 = administrators
 * only), the caller as user, or a group the caller belongs to.
 */
export async function isAllowed(
  db: Db,
  caller: Caller,
  callerLevel: number,
  rules: readonly ProtectionRule[],
  action: ProtectionAction,
): Promise<boolean> {
  const user = caller.user;
  if (!user) return false;
  if (rules.length === 0) return callerLevel >= AccessLevel.DEVELOPER;
  for (const rule of rules) {
    for (const entry of rule.levels.filter((l) => l.action === action)) {
      if (entry.userId !== null && entry.userId === user.id) return true;
      if (entry.groupId !== null && (await isGroupMember(db, user.id, entry.groupId))) return true;
      if (entry.accessLevel !== null && entry.accessLevel !== AccessLevel.NO_ACCESS) {
        if (entry.accessLevel === AccessLevel.ADMIN ? user.isAdmin : callerLevel >= entry.accessLevel)
          return true;
      }
    }
  }
  return false;
}

async function isGroupMember(db: Db, userId: number, groupId: number): Promise<boolean> {
  const chain = await groupChain(db, groupId);
  return isMemberOfAnyGroup(
    db,
    userId,
    chain.map((g) => g.id),
  );
}

/** Whether developers (level 30) are named by a matching rule for this action. */
export function developersCan(rules: readonly ProtectionRule[], action: ProtectionAction): boolean {
  return rules.some((rule) =>
    rule.levels.some(
      (l) =>
        l.action === action &&
        l.accessLevel !== null &&
        l.accessLevel !== 0 &&
        l.accessLevel <= AccessLevel.DEVELOPER,
    ),
  );
}
