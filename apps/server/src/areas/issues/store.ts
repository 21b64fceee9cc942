// The issues area's queries. An issue's labels and assignees are rows of issuable_labels and issuable_users
// (issuables.ts); its iid comes from the project's counter in internal_ids, taken in the creating transaction.

import {
  type Expression,
  type Insertable,
  type Selectable,
  type SqlBool,
  sql,
  type Transaction,
} from 'kysely';
import { type Db, nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { Database, IssuesTable } from '../../core/store/tables.js';
import {
  deleteWhatHangsOn,
  type LabelFilter,
  labelCondition,
  searchCondition,
  userCondition,
} from '../issuables/index.js';

export type IssueRow = Selectable<IssuesTable>;

/** Which confidential issues a reader sees: all of them, or only their own (author or assignee). */
export type ConfidentialScope = { all: true } | { all: false; userId: number | null };

export interface IssueFilters {
  state: 'opened' | 'closed' | 'all';
  labels?: LabelFilter;
  search?: string;
  authorId?: number;
  assignee?: 'none' | 'any' | number;
  iids?: number[];
  confidential?: boolean;
  readable: ConfidentialScope;
}

export interface IssueOrder {
  orderBy: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
}

function filteredIssues(db: Db, projectId: number, filters: IssueFilters) {
  return db
    .selectFrom('issues as i')
    .where('i.project_id', '=', projectId)
    .where((eb) => {
      const conditions: Expression<SqlBool>[] = [];
      if (filters.state !== 'all') conditions.push(eb('i.state', '=', filters.state));
      if (filters.labels) conditions.push(labelCondition('Issue', filters.labels));
      if (filters.search !== undefined) conditions.push(searchCondition(filters.search));
      if (filters.authorId !== undefined) conditions.push(eb('i.author_id', '=', filters.authorId));
      const assignee = filters.assignee;
      if (assignee === 'none') conditions.push(eb.not(userCondition('Issue', 'assignee')));
      else if (assignee === 'any') conditions.push(userCondition('Issue', 'assignee'));
      else if (assignee !== undefined) conditions.push(userCondition('Issue', 'assignee', assignee));
      if (filters.iids) conditions.push(eb('i.iid', 'in', filters.iids));
      if (filters.confidential !== undefined)
        conditions.push(eb('i.confidential', '=', filters.confidential ? 1 : 0));
      const readable = filters.readable;
      if (!readable.all) {
        const own: Expression<SqlBool>[] = [eb('i.confidential', '=', 0)];
        if (readable.userId !== null)
          own.push(
            eb('i.author_id', '=', readable.userId),
            userCondition('Issue', 'assignee', readable.userId),
          );
        conditions.push(eb.or(own));
      }
      return eb.and(conditions);
    });
}

/** One page of the project's issues; the order's ties broken by ID, the same way. */
export function listIssues(
  db: Db,
  projectId: number,
  filters: IssueFilters,
  order: IssueOrder,
  window: PageWindow,
): Promise<Page<IssueRow>> {
  // An empty `iids[]` matches nothing (`in ()` is no valid SQL).
  if (filters.iids?.length === 0) return Promise.resolve({ items: [], total: 0 });
  return readPageOf(
    db,
    filteredIssues(db, projectId, filters),
    (query) => query.selectAll('i').orderBy(`i.${order.orderBy}`, order.sort).orderBy('i.id', order.sort),
    window,
  );
}

/** The issues with these IDs, of any project (a missing one is left out). */
export function issuesById(db: Db, ids: readonly number[]): Promise<IssueRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('issues')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

export function findIssue(db: Db, projectId: number, iid: number): Promise<IssueRow | undefined> {
  return db
    .selectFrom('issues')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('iid', '=', iid)
    .executeTakeFirst();
}

/**
 * The project's next internal ID of a kind (`issues`, `merge_requests`): the counter row goes up by one, made
 * on first use from the highest iid already there. Run it in the writing transaction (which holds the
 * write lock), so two creations never take the same iid.
 */
export async function nextInternalId(
  db: Db,
  projectId: number,
  usage: 'issues' | 'merge_requests',
): Promise<number> {
  const counter = await db
    .updateTable('internal_ids')
    .set({ last_value: sql<number>`last_value + 1` })
    .where('project_id', '=', projectId)
    .where('usage', '=', usage)
    .returning('last_value')
    .executeTakeFirst();
  if (counter) return counter.last_value;
  const highest = await db
    .selectFrom(usage)
    .select((eb) => eb.fn.max('iid').as('iid'))
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  const next = Number(highest?.iid ?? 0) + 1;
  await db.insertInto('internal_ids').values({ project_id: projectId, usage, last_value: next }).execute();
  return next;
}

export interface NewIssue {
  projectId: number;
  title: string;
  description: string | null;
  authorId: number;
  confidential: boolean;
  discussionLocked: boolean | null;
  dueDate: string | null;
  createdAt: string | null;
}

export async function insertIssue(db: Db, issue: NewIssue): Promise<IssueRow> {
  const createdAt = issue.createdAt ?? nowIso();
  const iid = await nextInternalId(db, issue.projectId, 'issues');
  return db
    .insertInto('issues')
    .values({
      project_id: issue.projectId,
      iid,
      title: issue.title,
      description: issue.description,
      state: 'opened',
      author_id: issue.authorId,
      confidential: issue.confidential ? 1 : 0,
      discussion_locked: issue.discussionLocked === null ? null : issue.discussionLocked ? 1 : 0,
      due_date: issue.dueDate,
      closed_at: null,
      closed_by_id: null,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type IssueChanges = Partial<
  Pick<
    IssueRow,
    | 'title'
    | 'description'
    | 'state'
    | 'confidential'
    | 'discussion_locked'
    | 'due_date'
    | 'closed_at'
    | 'closed_by_id'
    | 'updated_at'
  >
>;

export async function updateIssue(db: Db, issueId: number, changes: IssueChanges): Promise<IssueRow> {
  return db
    .updateTable('issues')
    .set({ updated_at: nowIso(), ...changes })
    .where('id', '=', issueId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/* Fixtures ---------------------------------------------------------------------------------------- */

/** Adds an issue as given (fixtures); returns its ID. */
export async function insertFixtureIssue(db: Db, issue: Insertable<IssuesTable>): Promise<number> {
  const { id } = await db.insertInto('issues').values(issue).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Sets the project's issue counter (the last iid given). */
export async function setIssueCounter(db: Db, projectId: number, lastValue: number): Promise<void> {
  await db
    .insertInto('internal_ids')
    .values({ project_id: projectId, usage: 'issues', last_value: lastValue })
    .execute();
}

/** Deletes issues with what hangs on them (notes, reactions, labels, assignees, to-dos), in `trx`. */
export async function deleteIssueRows(trx: Transaction<Database>, ids: readonly number[]): Promise<void> {
  await deleteWhatHangsOn(trx, 'Issue', ids);
  for (let start = 0; start < ids.length; start += 500)
    await trx
      .deleteFrom('issues')
      .where('id', 'in', ids.slice(start, start + 500))
      .execute();
}

/**
 * What a user's deletion does to issues (in the deletion's transaction), as GitLab: the issues the user wrote
 * move to the ghost user (MigrateRecordsToGhostUserService#migrate_issues), or with `hardDelete` go with
 * what hangs on them (User `has_many :issues, dependent: :destroy`); who closed an issue is forgotten in both
 * cases (`issues.closed_by_id` references users ON DELETE SET NULL, and the service does not migrate it).
 */
export async function handOverIssues(
  trx: Transaction<Database>,
  userId: number,
  ghostId: number,
  hardDelete: boolean,
): Promise<void> {
  await trx.updateTable('issues').set({ closed_by_id: null }).where('closed_by_id', '=', userId).execute();
  if (!hardDelete) {
    await trx.updateTable('issues').set({ author_id: ghostId }).where('author_id', '=', userId).execute();
    return;
  }
  const authored = await trx.selectFrom('issues').select('id').where('author_id', '=', userId).execute();
  await deleteIssueRows(
    trx,
    authored.map((row) => row.id),
  );
}
