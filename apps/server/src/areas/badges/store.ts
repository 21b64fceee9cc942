// The badges area's queries. A badge belongs to one project or one group; a project's list also holds the
// badges of its group chain.

import type { Selectable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { BadgesTable } from '../../core/store/tables.js';

export type BadgeRow = Selectable<BadgesTable>;

/** Whose badges a request sees: a project's own and its groups' (`groupIds`), or one group's. */
export type BadgeScope = { projectId: number; groupIds: readonly number[] } | { groupId: number };

/** The badges of the scope, nothing selected yet (a list counts them, a read selects one). */
function badgesOf(db: Db, scope: BadgeScope) {
  const query = db.selectFrom('badges');
  if ('groupId' in scope) return query.where('group_id', '=', scope.groupId);
  return query.where((eb) =>
    scope.groupIds.length === 0
      ? eb('project_id', '=', scope.projectId)
      : eb.or([eb('project_id', '=', scope.projectId), eb('group_id', 'in', scope.groupIds)]),
  );
}

/** One page of the scope's badges, oldest first (GitLab orders by creation), with `name` matched exactly. */
export function listBadges(
  db: Db,
  scope: BadgeScope,
  name: string | undefined,
  window: PageWindow,
): Promise<Page<BadgeRow>> {
  const filtered = name === undefined ? badgesOf(db, scope) : badgesOf(db, scope).where('name', '=', name);
  return readPageOf(db, filtered, (query) => query.selectAll().orderBy('id'), window);
}

export function findBadge(db: Db, scope: BadgeScope, badgeId: number): Promise<BadgeRow | undefined> {
  return badgesOf(db, scope).selectAll().where('id', '=', badgeId).executeTakeFirst();
}

export interface NewBadge {
  owner: { projectId: number } | { groupId: number };
  name: string | null;
  linkUrl: string;
  imageUrl: string;
}

export async function insertBadge(db: Db, badge: NewBadge): Promise<BadgeRow> {
  const now = nowIso();
  return db
    .insertInto('badges')
    .values({
      project_id: 'projectId' in badge.owner ? badge.owner.projectId : null,
      group_id: 'groupId' in badge.owner ? badge.owner.groupId : null,
      name: badge.name,
      link_url: badge.linkUrl,
      image_url: badge.imageUrl,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface BadgeChanges {
  name?: string;
  link_url?: string;
  image_url?: string;
}

/** Applies the changes to the badge; undefined when it is gone meanwhile. */
export async function updateBadge(
  db: Db,
  badgeId: number,
  changes: BadgeChanges,
): Promise<BadgeRow | undefined> {
  return db
    .updateTable('badges')
    .set({ ...changes, updated_at: nowIso() })
    .where('id', '=', badgeId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteBadge(db: Db, badgeId: number): Promise<void> {
  await db.deleteFrom('badges').where('id', '=', badgeId).execute();
}

/**
 * The projects of a group (its own, not its subgroups'), oldest first, one batch of `limit`. With
 * `onlyCandidatesFor`, only those that caller may possibly see: public ones, internal ones for a signed-in
 * caller, and private ones they are a member of or that are shared with some group (which the caller's
 * level then decides).
 */
export function projectsOfGroupByCreation(
  db: Db,
  groupId: number,
  onlyCandidatesFor: { userId: number | null } | undefined,
  window: PageWindow,
) {
  let query = db.selectFrom('projects as p').selectAll('p').where('p.namespace_id', '=', groupId);
  if (onlyCandidatesFor) {
    const { userId } = onlyCandidatesFor;
    query = query.where((eb) =>
      userId === null
        ? eb('p.visibility', '=', 'public')
        : eb.or([
            eb('p.visibility', 'in', ['public', 'internal']),
            eb.exists(
              eb
                .selectFrom('members as m')
                .select('m.id')
                .where('m.source_type', '=', 'Project')
                .whereRef('m.source_id', '=', 'p.id')
                .where('m.user_id', '=', userId),
            ),
            eb.exists(
              eb.selectFrom('project_group_links as l').select('l.id').whereRef('l.project_id', '=', 'p.id'),
            ),
          ]),
    );
  }
  return query.orderBy('p.created_at').orderBy('p.id').limit(window.limit).offset(window.offset).execute();
}
