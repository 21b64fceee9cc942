// The merge requests area's queries. Merge requests come from the fixtures; the API lists and reads them.

import type { Expression, Insertable, Selectable, SqlBool } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { MergeRequestsTable } from '../../core/store/tables.js';
import { type LabelFilter, labelCondition, searchCondition } from '../issuables/index.js';

export type MergeRequestRow = Selectable<MergeRequestsTable>;

export interface MergeRequestFilters {
  state: 'opened' | 'closed' | 'locked' | 'merged' | 'all';
  sourceBranch?: string;
  targetBranch?: string;
  labels?: LabelFilter;
  search?: string;
  authorId?: number;
  iids?: number[];
}

export type MergeRequestOrderBy = 'created_at' | 'updated_at' | 'title' | 'merged_at';

export interface MergeRequestOrder {
  orderBy: MergeRequestOrderBy;
  sort: 'asc' | 'desc';
}

/** The merge requests with these IDs, of any project (a missing one is left out). */
export function mergeRequestsById(db: Db, ids: readonly number[]): Promise<MergeRequestRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('merge_requests')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** One page of the project's merge requests; the order's ties broken by ID, the same way. */
export function listMergeRequests(
  db: Db,
  projectId: number,
  filters: MergeRequestFilters,
  order: MergeRequestOrder,
  window: PageWindow,
): Promise<Page<MergeRequestRow>> {
  // An empty `iids[]` matches nothing (`in ()` is no valid SQL).
  if (filters.iids?.length === 0) return Promise.resolve({ items: [], total: 0 });
  const filtered = db
    .selectFrom('merge_requests as i')
    .where('i.project_id', '=', projectId)
    .where((eb) => {
      const conditions: Expression<SqlBool>[] = [];
      if (filters.state !== 'all') conditions.push(eb('i.state', '=', filters.state));
      if (filters.sourceBranch !== undefined)
        conditions.push(eb('i.source_branch', '=', filters.sourceBranch));
      if (filters.targetBranch !== undefined)
        conditions.push(eb('i.target_branch', '=', filters.targetBranch));
      if (filters.labels) conditions.push(labelCondition('MergeRequest', filters.labels));
      if (filters.search !== undefined) conditions.push(searchCondition(filters.search));
      if (filters.authorId !== undefined) conditions.push(eb('i.author_id', '=', filters.authorId));
      if (filters.iids) conditions.push(eb('i.iid', 'in', filters.iids));
      return eb.and(conditions);
    });
  return readPageOf(
    db,
    filtered,
    (query) => query.selectAll('i').orderBy(`i.${order.orderBy}`, order.sort).orderBy('i.id', order.sort),
    window,
  );
}

export function findMergeRequest(
  db: Db,
  projectId: number,
  iid: number,
): Promise<MergeRequestRow | undefined> {
  return db
    .selectFrom('merge_requests')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('iid', '=', iid)
    .executeTakeFirst();
}

/** Whether the author has a merge request in the project older than this one (GitLab's first_contribution). */
export async function hasEarlierMergeRequest(db: Db, row: MergeRequestRow): Promise<boolean> {
  const earlier = await db
    .selectFrom('merge_requests')
    .select('id')
    .where('project_id', '=', row.project_id)
    .where('author_id', '=', row.author_id)
    .where('id', '<', row.id)
    .limit(1)
    .executeTakeFirst();
  return earlier !== undefined;
}

/* Fixtures ---------------------------------------------------------------------------------------- */

/** Adds a merge request as given (fixtures; the API does not create them); returns its ID. */
export async function insertFixtureMergeRequest(
  db: Db,
  mergeRequest: Insertable<MergeRequestsTable>,
): Promise<number> {
  const { id } = await db
    .insertInto('merge_requests')
    .values(mergeRequest)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Sets the project's merge request counter (the last iid given). */
export async function setMergeRequestCounter(db: Db, projectId: number, lastValue: number): Promise<void> {
  await db
    .insertInto('internal_ids')
    .values({ project_id: projectId, usage: 'merge_requests', last_value: lastValue })
    .execute();
}
