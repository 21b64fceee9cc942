// Type-level tests of the Access requests area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Access requests: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.PUT('/groups/{id}/access_requests/{user_id}/approve', {
      params: { path: { id: 7, user_id: 3 } },
      body: { access_level: 40 },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['AccessRequestMember'] | undefined>();
    const requested = await client.POST('/projects/{id}/access_requests', { params: { path: { id: 5 } } });
    expectTypeOf(requested.data).branded.toEqualTypeOf<Schemas['AccessRequest'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error approving is a PUT on .../approve
    await client.POST('/projects/{id}/access_requests/{user_id}', {
      params: { path: { id: 5, user_id: 3 } },
    });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error user_id is required
    await client.DELETE('/projects/{id}/access_requests/{user_id}', { params: { path: { id: 5 } } });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/projects/{id}/access_requests/{user_id}/approve', {
      params: { path: { id: 5, user_id: 3 } },
      // @ts-expect-error 35 is not an access level
      body: { access_level: 35 },
    });
  });
});
