// The personal access tokens area's queries: a user's existence, one token, one page of tokens with the
// list's filters, a new token and a revocation.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import { containsIgnoringCase } from '../../core/store/search.js';
import type { PersonalAccessTokensTable } from '../../core/store/tables.js';

export type TokenRow = Selectable<PersonalAccessTokensTable>;

export interface TokenFilter {
  userId?: number;
  revoked?: boolean;
  /** `active`: neither revoked nor expired on `today`; `inactive`: either. */
  state?: 'active' | 'inactive';
  today: string;
  search?: string;
  /** ISO timestamps, both ends included. */
  createdAfter?: string;
  createdBefore?: string;
  /** Days (YYYY-MM-DD): on or after, and before. */
  expiresAfter?: string;
  expiresBefore?: string;
}

export async function userExists(db: Db, userId: number): Promise<boolean> {
  return (
    (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined
  );
}

export function findToken(db: Db, id: number): Promise<TokenRow | undefined> {
  return db.selectFrom('personal_access_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

function filteredTokens(db: Db, filter: TokenFilter) {
  let query = db.selectFrom('personal_access_tokens');
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.revoked !== undefined) query = query.where('revoked', '=', filter.revoked ? 1 : 0);
  const today = filter.today;
  if (filter.state === 'active')
    query = query
      .where('revoked', '=', 0)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', today)]));
  if (filter.state === 'inactive')
    query = query.where((eb) =>
      eb.or([
        eb('revoked', '=', 1),
        eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', today)]),
      ]),
    );
  const search = filter.search;
  if (search !== undefined) query = query.where((eb) => containsIgnoringCase(eb.ref('name'), search));
  if (filter.createdAfter !== undefined) query = query.where('created_at', '>=', filter.createdAfter);
  if (filter.createdBefore !== undefined) query = query.where('created_at', '<=', filter.createdBefore);
  if (filter.expiresAfter !== undefined) query = query.where('expires_at', '>=', filter.expiresAfter);
  if (filter.expiresBefore !== undefined) query = query.where('expires_at', '<', filter.expiresBefore);
  return query;
}

/** One page of the tokens that pass the filter, oldest first. */
export function pageOfTokens(db: Db, filter: TokenFilter, window: PageWindow): Promise<Page<TokenRow>> {
  return readPageOf(
    db,
    filteredTokens(db, filter),
    (query) => query.selectAll().orderBy('id', 'asc'),
    window,
  );
}

export async function insertToken(db: Db, token: Insertable<PersonalAccessTokensTable>): Promise<number> {
  const { id } = await db
    .insertInto('personal_access_tokens')
    .values(token)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function revokeToken(db: Db, id: number): Promise<void> {
  await db.updateTable('personal_access_tokens').set({ revoked: 1 }).where('id', '=', id).execute();
}
