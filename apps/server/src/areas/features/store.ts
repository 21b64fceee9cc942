// The feature flags area's queries: features, their gate rows, and the actors a gate can name.
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';

export interface GateRow {
  feature_name: string;
  key: string;
  value: string;
}

/** The gate rows of the named features. */
export function gateRowsOf(db: Db, names: readonly string[]): Promise<GateRow[]> {
  if (names.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('feature_gates')
    .select(['feature_name', 'key', 'value'])
    .where('feature_name', 'in', names)
    .execute();
}

/** One page of feature names, in name order. */
export function pageOfFeatureNames(db: Db, window: PageWindow): Promise<Page<{ name: string }>> {
  return readPageOf(db, db.selectFrom('features'), (query) => query.select('name').orderBy('name'), window);
}

export function findUserActor(
  db: Db,
  username: string,
): Promise<{ id: number; is_admin: number } | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'is_admin'])
    .where('username', '=', username)
    .executeTakeFirst();
}

export function findGroupIdByPath(db: Db, fullPath: string): Promise<{ id: number } | undefined> {
  return db.selectFrom('groups').select('id').where('full_path', '=', fullPath).executeTakeFirst();
}

/** Makes the feature when it is new, or marks it updated. */
export async function touchFeature(db: Db, name: string, now: string): Promise<void> {
  await db
    .insertInto('features')
    .values({ name, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ updated_at: now }))
    .execute();
}

/** Removes the feature's gates of the given keys (all of its gates without keys). */
export async function deleteGates(db: Db, name: string, keys?: readonly string[]): Promise<void> {
  let query = db.deleteFrom('feature_gates').where('feature_name', '=', name);
  if (keys) query = query.where('key', 'in', keys);
  await query.execute();
}

export async function deleteGate(db: Db, row: GateRow): Promise<void> {
  await db
    .deleteFrom('feature_gates')
    .where('feature_name', '=', row.feature_name)
    .where('key', '=', row.key)
    .where('value', '=', row.value)
    .execute();
}

/** Adds a gate row; one that is there already stays as it is. */
export async function addGate(db: Db, row: GateRow): Promise<void> {
  await db
    .insertInto('feature_gates')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function deleteFeatureNamed(db: Db, name: string): Promise<void> {
  await db.deleteFrom('features').where('name', '=', name).execute();
}
