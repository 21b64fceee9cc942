// Notification settings (document 2, section 4.12; GitLab's lib/api/notification_settings.rb). Every
// operation needs a signed-in caller and reads or changes the caller's own settings: the global ones, and
// those of a group or project the caller can see (404 otherwise). Without a row the global level is
// `participating` and a group's or project's is `global`, with every custom event off. The events are kept
// whatever the level, and shown only at `custom`. `new_epic` exists on higher tiers only.
// `notification_email` must be one of the caller's addresses (400 otherwise); an empty one means the
// primary address again.
import { resolveGroup, resolveProject } from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError } from '../../core/http/errors.js';
import type { RequestBody, Schemas } from '../../core/http/types.js';
import { epicNotificationEvent } from '../features/index.js';
import { findSetting, type SettingKey, type SourceType, saveSetting, userEmails } from './store.js';

type NotificationSettings = Schemas['NotificationSettings'];
type GlobalNotificationSettings = Schemas['NotificationSettingsGlobal'];
type NotificationEvents = Schemas['NotificationEvents'];
type Level = Schemas['NotificationLevel'];
type Changes = RequestBody<'updateProjectNotificationSettings'>;
type GlobalChanges = RequestBody<'updateGlobalNotificationSettings'>;

/** The custom events of every tier, in GitLab's order. */
const EVENTS = [
  'new_note',
  'new_issue',
  'reopen_issue',
  'close_issue',
  'reassign_issue',
  'issue_due',
  'new_merge_request',
  'push_to_merge_request',
  'reopen_merge_request',
  'close_merge_request',
  'reassign_merge_request',
  'merge_merge_request',
  'failed_pipeline',
  'fixed_pipeline',
  'success_pipeline',
] as const satisfies readonly (keyof NotificationEvents)[];

function eventNames(context: ServerContext): (keyof NotificationEvents)[] {
  return epicNotificationEvent(context) ? [...EVENTS, 'new_epic'] : [...EVENTS];
}

interface Current {
  level: Level;
  events: Record<string, boolean>;
  notificationEmail: string | null;
}

async function currentOf(context: ServerContext, key: SettingKey): Promise<Current> {
  const row = await findSetting(context.db, key);
  if (!row)
    return {
      level: key.sourceType === 'Global' ? 'participating' : 'global',
      events: {},
      notificationEmail: null,
    };
  return {
    level: row.level as Level,
    events: JSON.parse(row.events) as Record<string, boolean>,
    notificationEmail: row.notification_email,
  };
}

function present(context: ServerContext, current: Current): NotificationSettings {
  if (current.level !== 'custom') return { level: current.level };
  const events = Object.fromEntries(
    eventNames(context).map((name) => [name, current.events[name] === true]),
  ) as NotificationEvents;
  return { level: current.level, events };
}

function applyChanges(context: ServerContext, current: Current, changes: Changes | undefined): Current {
  const events = { ...current.events };
  for (const name of eventNames(context)) {
    const value = changes?.[name];
    if (value !== undefined) events[name] = value;
  }
  return { ...current, level: changes?.level ?? current.level, events };
}

/** The key of the caller's settings for a group or project they can see. */
async function sourceKey(
  context: ServerContext,
  caller: Caller,
  sourceType: Exclude<SourceType, 'Global'>,
  idOrPath: string,
): Promise<SettingKey> {
  const user = requireUser(caller);
  const sourceId =
    sourceType === 'Group'
      ? (await resolveGroup(context.db, caller, idOrPath)).group.id
      : (await resolveProject(context.db, caller, idOrPath)).project.id;
  return { userId: user.id, sourceType, sourceId };
}

export async function getSourceSettings(
  context: ServerContext,
  caller: Caller,
  sourceType: Exclude<SourceType, 'Global'>,
  idOrPath: string,
): Promise<NotificationSettings> {
  requireUser(caller);
  requireScope(caller, 'read_api');
  const key = await sourceKey(context, caller, sourceType, idOrPath);
  return present(context, await currentOf(context, key));
}

export async function updateSourceSettings(
  context: ServerContext,
  caller: Caller,
  sourceType: Exclude<SourceType, 'Global'>,
  idOrPath: string,
  changes: Changes | undefined,
): Promise<NotificationSettings> {
  requireUser(caller);
  requireScope(caller, 'api');
  const key = await sourceKey(context, caller, sourceType, idOrPath);
  const updated = await context.db.transaction().execute(async (trx) => {
    const next = applyChanges(context, await currentOf({ ...context, db: trx }, key), changes);
    await saveSetting(trx, key, next);
    return next;
  });
  return present(context, updated);
}

async function presentGlobal(
  context: ServerContext,
  caller: Caller,
  current: Current,
): Promise<GlobalNotificationSettings> {
  const user = requireUser(caller);
  return { ...present(context, current), notification_email: current.notificationEmail ?? user.email };
}

export async function getGlobalSettings(
  context: ServerContext,
  caller: Caller,
): Promise<GlobalNotificationSettings> {
  const user = requireUser(caller);
  requireScope(caller, 'read_api');
  const current = await currentOf(context, { userId: user.id, sourceType: 'Global', sourceId: 0 });
  return presentGlobal(context, caller, current);
}

/** The address to store: one of the user's own (compared without case), or null for "" (the primary). */
async function checkedEmail(context: ServerContext, userId: number, email: string): Promise<string | null> {
  if (email.trim() === '') return null;
  const own = await userEmails(context.db, userId);
  const match = own.find((address) => address.toLowerCase() === email.trim().toLowerCase());
  if (!match) throw new ApiError(400, { message: { notification_email: ['is not an email you own'] } });
  return match;
}

export async function updateGlobalSettings(
  context: ServerContext,
  caller: Caller,
  changes: GlobalChanges | undefined,
): Promise<GlobalNotificationSettings> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const key: SettingKey = { userId: user.id, sourceType: 'Global', sourceId: 0 };
  const email =
    changes?.notification_email === undefined
      ? undefined
      : await checkedEmail(context, user.id, changes.notification_email);
  const updated = await context.db.transaction().execute(async (trx) => {
    const current = await currentOf({ ...context, db: trx }, key);
    const next = applyChanges(context, current, changes);
    if (email !== undefined) next.notificationEmail = email;
    await saveSetting(trx, key, next);
    return next;
  });
  return presentGlobal(context, caller, updated);
}
