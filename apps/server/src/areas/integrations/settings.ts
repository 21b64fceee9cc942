// An integration's settings, read and written through its slug's description (catalog.ts): what a PUT
// makes of the stored row and the request, and what a read may show. Pure functions: no database here.
import {
  CATALOG,
  EVENT_DEFAULTS,
  EVENT_FLAGS,
  type EventFlag,
  fieldsOf,
  isEventFlag,
  type Slug,
} from './catalog.js';
import type { IntegrationRow, IntegrationWrite } from './store.js';

/** A slug's stored settings: its string and boolean parameters, secrets included. */
export type Settings = Record<string, string | boolean>;

export function readSettings(row: Pick<IntegrationRow, 'properties'>): Settings {
  const parsed: unknown = JSON.parse(row.properties);
  const settings: Settings = {};
  if (parsed && typeof parsed === 'object') {
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === 'string' || typeof value === 'boolean') settings[name] = value;
    }
  }
  return settings;
}

/** A string setting (empty when not set). */
export function text(settings: Settings, name: string): string {
  const value = settings[name];
  return typeof value === 'string' ? value : '';
}

/** A boolean setting (false when not set). */
export function flag(settings: Settings, name: string): boolean {
  return settings[name] === true;
}

/** The flags a new integration of `slug` starts with: GitLab's defaults for those it takes, the rest off. */
function initialFlags(slug: Slug): Record<EventFlag, boolean> {
  const flags = Object.fromEntries(EVENT_FLAGS.map((name) => [name, false])) as Record<EventFlag, boolean>;
  for (const [name, field] of fieldsOf(slug)) {
    if (field.type === 'event' && isEventFlag(name)) flags[name] = EVENT_DEFAULTS[name];
  }
  for (const name of CATALOG[slug].alwaysOn ?? []) flags[name] = true;
  return flags;
}

function storedFlags(row: IntegrationRow): Record<EventFlag, boolean> {
  return Object.fromEntries(EVENT_FLAGS.map((name) => [name, row[name] === 1])) as Record<EventFlag, boolean>;
}

/**
 * What a PUT writes (GitLab's `integration.update(declared_params(include_missing: false))`): the stored
 * settings, or the slug's defaults for a new integration, with the parameters the request gives on top.
 * The deprecated `notify_only_default_branch` sets `branches_to_be_notified` (`default` or `all`) unless the
 * request gives that too.
 */
export function settingsAfterPut(
  slug: Slug,
  existing: IntegrationRow | undefined,
  body: Readonly<Record<string, unknown>>,
): IntegrationWrite {
  const settings: Settings = existing ? readSettings(existing) : {};
  const flags = existing ? storedFlags(existing) : initialFlags(slug);
  for (const [name, field] of fieldsOf(slug)) {
    if (!existing && field.type !== 'event' && field.type !== 'notifyOnlyDefaultBranch') {
      if (field.default !== undefined) settings[name] = field.default;
    }
  }
  for (const [name, field] of fieldsOf(slug)) {
    const value = body[name];
    if (value === undefined) continue;
    if (field.type === 'event' && isEventFlag(name) && typeof value === 'boolean') flags[name] = value;
    else if (field.type === 'string' && typeof value === 'string') settings[name] = value;
    else if (field.type === 'boolean' && typeof value === 'boolean') settings[name] = value;
    else if (
      field.type === 'notifyOnlyDefaultBranch' &&
      typeof value === 'boolean' &&
      body.branches_to_be_notified === undefined
    )
      settings.branches_to_be_notified = value ? 'default' : 'all';
  }
  const columns = Object.fromEntries(EVENT_FLAGS.map((name) => [name, flags[name] ? 1 : 0])) as Record<
    EventFlag,
    number
  >;
  return { properties: JSON.stringify(settings), ...columns };
}

/**
 * The settings a read shows (GitLab's ProjectIntegration#properties without its secret fields): every
 * non-secret setting that has a value; team-chat-c's deprecated flag as `branches_to_be_notified` implies.
 */
export function visibleSettings(slug: Slug, settings: Settings): Settings {
  const visible: Settings = {};
  for (const [name, field] of fieldsOf(slug)) {
    if (field.type === 'string' && !field.secret && settings[name] !== undefined) {
      visible[name] = text(settings, name);
    } else if (field.type === 'boolean' && settings[name] !== undefined) {
      visible[name] = flag(settings, name);
    } else if (field.type === 'notifyOnlyDefaultBranch') {
      visible[name] = text(settings, 'branches_to_be_notified') === 'default';
    }
  }
  return visible;
}
