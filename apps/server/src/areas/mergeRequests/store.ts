// The merge requests area's queries: lists and reads, and the writes of creation, changes and merges.

import {
  type Expression,
  type Insertable,
  type Selectable,
  type SqlBool,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import { type Db, nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { Database, MergeRequestsTable } from '../../core/store/tables.js';
import { deleteWhatHangsOn, type LabelFilter, labelCondition, searchCondition } from '../issuables/index.js';

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

/* Writes --------------------------------------------------------------------------------------------- */

/** The open merge request from `sourceBranch` into `targetBranch` of the project, other than `exceptId`. */
export function findOpenDuplicate(
  db: Db,
  projectId: number,
  sourceBranch: string,
  targetBranch: string,
  exceptId: number | null,
): Promise<Pick<MergeRequestRow, 'iid'> | undefined> {
  let query = db
    .selectFrom('merge_requests')
    .select('iid')
    .where('project_id', '=', projectId)
    .where('source_project_id', '=', projectId)
    .where('source_branch', '=', sourceBranch)
    .where('state', '=', 'opened')
    .where('target_branch', '=', targetBranch);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return query.orderBy('iid').limit(1).executeTakeFirst();
}

export interface NewMergeRequest {
  projectId: number;
  iid: number;
  title: string;
  description: string | null;
  authorId: number;
  sourceBranch: string;
  targetBranch: string;
  sha: string;
  mergeStatus: 'can_be_merged' | 'cannot_be_merged';
  /** The diff against the target as it was made. */
  diff: Pick<MergeRequestChanges, 'diff_base_sha' | 'diff_start_sha' | 'changes_count'>;
  squash: boolean;
  forceRemoveSourceBranch: boolean;
}

export function insertMergeRequest(db: Db, mergeRequest: NewMergeRequest): Promise<MergeRequestRow> {
  const now = nowIso();
  return db
    .insertInto('merge_requests')
    .values({
      project_id: mergeRequest.projectId,
      iid: mergeRequest.iid,
      title: mergeRequest.title,
      description: mergeRequest.description,
      state: 'opened',
      author_id: mergeRequest.authorId,
      source_project_id: mergeRequest.projectId,
      source_branch: mergeRequest.sourceBranch,
      target_branch: mergeRequest.targetBranch,
      sha: mergeRequest.sha,
      merge_commit_sha: null,
      merge_status: mergeRequest.mergeStatus,
      ...mergeRequest.diff,
      merged_by_id: null,
      merged_at: null,
      closed_by_id: null,
      closed_at: null,
      squash: mergeRequest.squash ? 1 : 0,
      force_remove_source_branch: mergeRequest.forceRemoveSourceBranch ? 1 : 0,
      merge_when_pipeline_succeeds: 0,
      discussion_locked: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type MergeRequestChanges = Updateable<Omit<MergeRequestsTable, 'id' | 'project_id' | 'iid'>>;

/** Applies the changes and sets `updated_at` (unless given); returns the row as written. */
export function updateMergeRequest(
  db: Db,
  id: number,
  changes: MergeRequestChanges,
): Promise<MergeRequestRow> {
  return db
    .updateTable('merge_requests')
    .set({ updated_at: nowIso(), ...changes })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Moves an open merge request to `locked` (GitLab's state while it merges) if it is still open, noting when
 * and by whom: the compare-and-swap that lets exactly one of several merges of it go on. Undefined when it
 * was not open.
 */
export function lockForMerge(db: Db, id: number, userId: number): Promise<MergeRequestRow | undefined> {
  return db
    .updateTable('merge_requests')
    .set({ state: 'locked', merge_locked_at: nowIso(), merge_user_id: userId })
    .where('id', '=', id)
    .where('state', '=', 'opened')
    .returningAll()
    .executeTakeFirst();
}

/** The columns of a merge request without an automatic merge. */
export const NO_AUTO_MERGE = {
  merge_when_pipeline_succeeds: 0,
  merge_user_id: null,
  merge_params: null,
} as const;

/** The merge requests held `locked` by a merge, oldest lock first (locks without a time first of all). */
export function lockedMergeRequests(db: Db, limit: number): Promise<MergeRequestRow[]> {
  return (
    db
      .selectFrom('merge_requests')
      .selectAll()
      .where('state', '=', 'locked')
      // Locks without a time first on both databases (PostgreSQL sorts nulls last).
      .orderBy(sql`merge_locked_at is not null`)
      .orderBy('merge_locked_at')
      .orderBy('id')
      .limit(limit)
      .execute()
  );
}

/** Back to `opened` after a merge that did not happen, with the merge user it had before the lock. */
export async function unlockAfterFailedMerge(
  db: Db,
  id: number,
  changes: Pick<MergeRequestChanges, 'merge_user_id' | 'merge_error'>,
): Promise<void> {
  await db
    .updateTable('merge_requests')
    .set({ state: 'opened', merge_locked_at: null, ...changes })
    .where('id', '=', id)
    .where('state', '=', 'locked')
    .execute();
}

/** The open merge requests set to merge when the pipeline of `sha` on their source branch succeeds. */
export function autoMergeCandidates(
  db: Db,
  projectId: number,
  sourceBranch: string,
  sha: string,
): Promise<MergeRequestRow[]> {
  return db
    .selectFrom('merge_requests')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('merge_when_pipeline_succeeds', '=', 1)
    .where('state', '=', 'opened')
    .where('source_branch', '=', sourceBranch)
    .where('sha', '=', sha)
    .orderBy('id')
    .execute();
}

/** The open merge requests of the project from (`source`) or into (`target`) the branch. */
export function openMergeRequestsOfBranch(
  db: Db,
  projectId: number,
  branch: string,
  side: 'source' | 'target',
): Promise<MergeRequestRow[]> {
  return db
    .selectFrom('merge_requests')
    .selectAll()
    .where('project_id', '=', projectId)
    .where(side === 'source' ? 'source_branch' : 'target_branch', '=', branch)
    .where('state', '=', 'opened')
    .orderBy('id')
    .execute();
}

/** Writes the changes only if the merge request is still in `state` (a refresh racing a merge or a close). */
export function updateMergeRequestIn(
  db: Db,
  id: number,
  state: string,
  changes: MergeRequestChanges,
): Promise<MergeRequestRow | undefined> {
  return db
    .updateTable('merge_requests')
    .set({ updated_at: nowIso(), ...changes })
    .where('id', '=', id)
    .where('state', '=', state)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes a merge request with what hangs on it (in the caller's transaction); false when it was gone. */
export async function deleteMergeRequestRow(trx: Db, id: number): Promise<boolean> {
  await deleteWhatHangsOn(trx, 'MergeRequest', [id]);
  const result = await trx.deleteFrom('merge_requests').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * What a user's deletion does to merge requests (in the deletion's transaction), as GitLab: the ones the user
 * wrote move to the ghost user with the merge user the user was (MigrateRecordsToGhostUserService
 * #migrate_merge_requests: `author_id`, `merge_user_id`), or with `hardDelete` go with what hangs on them
 * (User `has_many :merge_requests, dependent: :destroy`) and the merge user is forgotten (its foreign key
 * nullifies). Who merged or closed one is forgotten in both cases: GitLab keeps them in merge_request_metrics
 * (`merged_by_id`, `latest_closed_by_id`), whose foreign keys to users are ON DELETE SET NULL and which the
 * service does not migrate.
 */
export async function handOverMergeRequests(
  trx: Transaction<Database>,
  userId: number,
  ghostId: number,
  hardDelete: boolean,
): Promise<void> {
  for (const column of ['merged_by_id', 'closed_by_id'] as const)
    await trx
      .updateTable('merge_requests')
      .set({ [column]: null })
      .where(column, '=', userId)
      .execute();
  await trx
    .updateTable('merge_requests')
    .set({ merge_user_id: hardDelete ? null : ghostId })
    .where('merge_user_id', '=', userId)
    .execute();
  if (!hardDelete) {
    await trx
      .updateTable('merge_requests')
      .set({ author_id: ghostId })
      .where('author_id', '=', userId)
      .execute();
    return;
  }
  const authored = await trx
    .selectFrom('merge_requests')
    .select('id')
    .where('author_id', '=', userId)
    .execute();
  for (const { id } of authored) await deleteMergeRequestRow(trx, id);
}

/* Fixtures ---------------------------------------------------------------------------------------- */

/** Adds a merge request as given (fixtures: any state and times); returns its ID. */
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
