// The notification settings area's queries: one row per user and source (`Global` with source_id 0,
// `Group`, `Project`), written whole (level, events, e-mail) by an upsert.
import type { Selectable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { nowIso } from '../../core/store/database.js';
import type { NotificationSettingsTable } from '../../core/store/tables.js';

export type NotificationSettingRow = Selectable<NotificationSettingsTable>;
export type SourceType = 'Global' | 'Group' | 'Project';

export interface SettingKey {
  userId: number;
  sourceType: SourceType;
  /** 0 for the global settings. */
  sourceId: number;
}

export function findSetting(db: Db, key: SettingKey): Promise<NotificationSettingRow | undefined> {
  return db
    .selectFrom('notification_settings')
    .selectAll()
    .where('user_id', '=', key.userId)
    .where('source_type', '=', key.sourceType)
    .where('source_id', '=', key.sourceId)
    .executeTakeFirst();
}

export interface SettingValues {
  level: string;
  events: Record<string, boolean>;
  notificationEmail: string | null;
}

/** Writes the settings of the key, making the row if there is none yet. */
export async function saveSetting(db: Db, key: SettingKey, values: SettingValues): Promise<void> {
  const now = nowIso();
  const columns = {
    level: values.level,
    events: JSON.stringify(values.events),
    notification_email: values.notificationEmail,
    updated_at: now,
  };
  await db
    .insertInto('notification_settings')
    .values({
      user_id: key.userId,
      source_type: key.sourceType,
      source_id: key.sourceId,
      ...columns,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'source_type', 'source_id']).doUpdateSet(columns))
    .execute();
}

/** The user's addresses notifications may go to: the primary e-mail and the public one. */
export async function userEmails(db: Db, userId: number): Promise<string[]> {
  const row = await db
    .selectFrom('users')
    .select(['email', 'public_email'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) return [];
  return [row.email, ...(row.public_email ? [row.public_email] : [])];
}
