// Type-level tests of the Notification settings area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Notification settings: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.PUT('/groups/{id}/notification_settings', {
      params: { path: { id: 7 } },
      body: { level: 'custom', new_note: true, failed_pipeline: false, new_epic: true },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['NotificationSettings'] | undefined>();
    const global = await client.GET('/notification_settings');
    expectTypeOf(global.data).branded.toEqualTypeOf<Schemas['NotificationSettingsGlobal'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error there are no user-level notification settings
    await client.GET('/users/{id}/notification_settings', { params: { path: { id: 1 } } });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error the project id is required
    await client.GET('/projects/{id}/notification_settings', { params: { path: {} } });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/projects/{id}/notification_settings', {
      params: { path: { id: 5 } },
      // @ts-expect-error loud is not a notification level
      body: { level: 'loud' },
    });
    await client.PUT('/notification_settings', {
      // @ts-expect-error the event switches are booleans
      body: { new_issue: 'on' },
    });
  });
});
