// Notification settings (document 2, section 4.12): the caller's global level and address, and their level
// and custom events for a group and a project; events shown only at the custom level; the address must be
// the caller's own; who may call.
import type { components, operations } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

let target: Target;

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target.close();
});

/** The caller's global settings, with their notification address. */
type GlobalSettings = components['schemas']['NotificationSettingsGlobal'];
/** The caller's settings for a group or a project. */
type SourceSettings = components['schemas']['NotificationSettings'];
type CurrentUser = operations['getCurrentUser']['responses'][200]['content']['application/json'];

const enc = encodeURIComponent;
/** The body is loose on purpose: the tests also send values the spec refuses. */
const put = <T extends GlobalSettings | SourceSettings = SourceSettings>(
  caller: Caller,
  path: string,
  json: Record<string, unknown>,
) => callAs<T>(target, caller, path, { method: 'PUT', json });

describe('global settings', () => {
  it('reads and changes the level and the address', async () => {
    const me = await callAs<CurrentUser>(target, 'reporter', '/user');
    expect(me.status).toBe(200);
    const before = await callAs<GlobalSettings>(target, 'reporter', '/notification_settings');
    expect(before.status).toBe(200);
    expect(typeof before.body.notification_email).toBe('string');

    const watch = await put<GlobalSettings>('reporter', '/notification_settings', {
      level: 'watch',
      notification_email: me.body.email,
    });
    expect(watch.status).toBe(200);
    expect(watch.body).toEqual({ level: 'watch', notification_email: me.body.email });
    expect((await callAs<GlobalSettings>(target, 'reporter', '/notification_settings')).body.level).toBe(
      'watch',
    );
  });

  it("refuses an address that is not the caller's (400) and takes the form carrier", async () => {
    const other = await put<GlobalSettings>('reporter', '/notification_settings', {
      notification_email: 'someone-else@example.invalid',
    });
    expect(other.status).toBe(400);
    const form = await callAs<GlobalSettings>(target, 'reporter', '/notification_settings', {
      method: 'PUT',
      form: { level: 'mention' },
    });
    expect(form.status).toBe(200);
    expect(form.body.level).toBe('mention');
  });

  it('shows the events at the custom level only', async () => {
    const custom = await put<GlobalSettings>('reporter', '/notification_settings', {
      level: 'custom',
      new_note: true,
      failed_pipeline: 'yes',
    });
    expect(custom.status).toBe(200);
    expect(custom.body.events?.new_note).toBe(true);
    expect(custom.body.events?.failed_pipeline).toBe(true);
    expect(custom.body.events?.close_issue).toBe(false);
    const participating = await put<GlobalSettings>('reporter', '/notification_settings', {
      level: 'participating',
    });
    expect(participating.body.events).toBeUndefined();
    const again = await put<GlobalSettings>('reporter', '/notification_settings', { level: 'custom' });
    expect(again.body.events?.new_note).toBe(true);
  });

  it('refuses an unknown level (400)', async () => {
    expect((await put<GlobalSettings>('reporter', '/notification_settings', { level: 'loud' })).status).toBe(
      400,
    );
    expect(
      (await put<GlobalSettings>('reporter', '/notification_settings', { new_issue: 'maybe' })).status,
    ).toBe(400);
  });
});

describe('group and project settings', () => {
  const paths = () => [
    `/groups/${enc(target.config.fixtures.namespace)}/notification_settings`,
    `/projects/${enc(target.config.fixtures.publicProject)}/notification_settings`,
  ];

  it('changes the level and the custom events of each source on its own', async () => {
    for (const path of paths()) {
      const custom = await put('developer', path, {
        level: 'custom',
        new_merge_request: true,
        new_note: false,
      });
      expect(custom.status, path).toBe(200);
      expect(custom.body.level).toBe('custom');
      expect(custom.body.events?.new_merge_request).toBe(true);
      expect(custom.body.events?.new_note).toBe(false);
      expect(custom.body).not.toHaveProperty('notification_email');
      const read = await callAs<SourceSettings>(target, 'developer', path);
      expect(read.body).toEqual(custom.body);
      const global = await put('developer', path, { level: 'global' });
      expect(global.body).toEqual({ level: 'global' });
    }
  });

  it('lets any signed-in caller who sees the group or project keep their own settings', async () => {
    for (const path of paths()) {
      const outsider = await put('outsider', path, { level: 'disabled' });
      expect(outsider.status, path).toBe(200);
      expect(outsider.body).toEqual({ level: 'disabled' });
      expect((await callAs<SourceSettings>(target, 'owner', path)).body.level).not.toBe('disabled');
    }
  });

  it('answers 404 for a group or project the caller cannot see, and for unknown ones', async () => {
    const hidden = [
      `/groups/${enc(target.config.fixtures.hiddenGroup)}/notification_settings`,
      `/projects/${enc(target.config.fixtures.privateProject)}/notification_settings`,
    ];
    for (const path of hidden) {
      expect((await callAs(target, 'outsider', path)).status, path).toBe(404);
      expect((await put('outsider', path, { level: 'watch' })).status, path).toBe(404);
      expect((await callAs(target, 'guest', path)).status, path).toBe(200);
    }
    expect((await callAs(target, 'developer', '/groups/no-such-group-x/notification_settings')).status).toBe(
      404,
    );
    expect((await callAs(target, 'developer', '/projects/987654321/notification_settings')).status).toBe(404);
  });
});

describe('who may call', () => {
  it('answers 401 without a valid token and 403 for a read_repository token', async () => {
    const all = [
      '/notification_settings',
      `/groups/${enc(target.config.fixtures.namespace)}/notification_settings`,
      `/projects/${enc(target.config.fixtures.publicProject)}/notification_settings`,
    ];
    for (const path of all) {
      for (const caller of ['anonymous', 'invalid', 'revoked'] as const) {
        expect((await callAs(target, caller, path)).status, `${caller} ${path}`).toBe(401);
        expect((await put(caller, path, { level: 'watch' })).status, `${caller} ${path}`).toBe(401);
      }
      expect((await callAs(target, 'developerReadRepository', path)).status, path).toBe(403);
    }
  });
});
