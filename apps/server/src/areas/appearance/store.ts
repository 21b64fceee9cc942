// The appearance's one row (migration 026): read it, and write the changed settings in one statement.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import type { AppearanceTable } from '../../core/store/tables.js';

export type AppearanceRow = Selectable<AppearanceTable>;
/** The settings a PUT changes: any columns but the key and the time. */
export type AppearanceChanges = Omit<Insertable<AppearanceTable>, 'id' | 'updated_at'>;

/** GitLab keeps one appearance row; ours is always id 1 (also the `1` in the images' URLs). */
export const APPEARANCE_ID = 1;

export function findAppearance(db: Db): Promise<AppearanceRow | undefined> {
  return db.selectFrom('appearance').selectAll().where('id', '=', APPEARANCE_ID).executeTakeFirst();
}

/**
 * Writes the changed settings (creating the row with the defaults for the rest on the first write) and
 * returns the row as it is now. Pass a transaction: the caller reads the previous row in the same one.
 */
export async function saveAppearance(
  db: Db,
  changes: AppearanceChanges,
  now: string,
): Promise<AppearanceRow> {
  const values = { ...changes, updated_at: now };
  return db
    .insertInto('appearance')
    .values({ id: APPEARANCE_ID, ...values })
    .onConflict((conflict) => conflict.column('id').doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}
