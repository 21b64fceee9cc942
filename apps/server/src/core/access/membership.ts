// Which memberships and shares count: GitLab's `non_expired` scope of the Expirable concern, which members
// and group links (a project shared with a group) both include. An `expires_at` is the last day in the
// date's own terms but GitLab compares the date with the current time, so the membership or share ends when
// its date begins (UTC): it counts while `expires_at` is absent or after today.
import { type RawBuilder, sql } from 'kysely';
import { todayIso } from '../store/database.js';

/**
 * The row `alias` (a table name or alias of `members` or `project_group_links`) has not expired, as an SQL
 * condition.
 * Raw SQL so that hand-written correlated subqueries and Kysely builders use one rule.
 */
export function unexpiredMembership(alias: string, today: string = todayIso()): RawBuilder<boolean> {
  const column = sql.ref(`${alias}.expires_at`);
  return sql<boolean>`(${column} is null or ${column} > ${today})`;
}

/** Whether a membership or share with this last day counts today. */
export function membershipCounts(expiresAt: string | null, today: string = todayIso()): boolean {
  return expiresAt === null || expiresAt > today;
}
