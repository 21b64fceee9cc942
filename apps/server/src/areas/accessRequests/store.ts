// The access-request area's queries: pending requests (table access_requests). The membership an approval
// makes is the members area's (addMemberIn).
import type { Transaction } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { Database } from '../../core/store/tables.js';

/** What a request or membership belongs to: GitLab's polymorphic source. */
export interface Source {
  type: 'Group' | 'Project';
  id: number;
}

/** A pending request with the requesting user's fields, as the API presents it. */
export interface RequesterRow {
  user_id: number;
  username: string;
  name: string;
  state: string;
  user_created_at: string;
  requested_at: string;
}

type Reader = Db | Transaction<Database>;

function requestsOf(db: Reader, source: Source) {
  return db
    .selectFrom('access_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .where('r.source_type', '=', source.type)
    .where('r.source_id', '=', source.id);
}

function selectRequester(query: ReturnType<typeof requestsOf>) {
  return query.select([
    'r.user_id',
    'u.username',
    'u.name',
    'u.state',
    'u.created_at as user_created_at',
    'r.requested_at',
  ]);
}

/** One page of a source's pending requests, oldest first. */
export function pageOfRequests(db: Db, source: Source, window: PageWindow): Promise<Page<RequesterRow>> {
  return readPageOf(db, requestsOf(db, source), (query) => selectRequester(query).orderBy('r.id'), window);
}

export function findRequest(db: Reader, source: Source, userId: number): Promise<RequesterRow | undefined> {
  return selectRequester(requestsOf(db, source)).where('r.user_id', '=', userId).executeTakeFirst();
}

export async function insertRequest(
  trx: Transaction<Database>,
  source: Source,
  userId: number,
  requestedAt: string,
): Promise<void> {
  await trx
    .insertInto('access_requests')
    .values({ source_type: source.type, source_id: source.id, user_id: userId, requested_at: requestedAt })
    .execute();
}

/** Removes a pending request; whether there was one. */
export async function deleteRequest(db: Reader, source: Source, userId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('access_requests')
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
