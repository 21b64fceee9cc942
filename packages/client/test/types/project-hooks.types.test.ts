// Type-level tests of the Project hooks area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Project hooks: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.GET('/projects/{id}/hooks/{hook_id}', {
      params: { path: { id: 5, hook_id: 1 } },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['ProjectHook'] | undefined>();
    const list = await client.GET('/projects/{id}/hooks', {
      params: { path: { id: 5 }, query: { per_page: 50 } },
    });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['ProjectHook'][] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error adding a hook is not part of the API
    await client.POST('/projects/{id}/hooks', { params: { path: { id: 5 } } });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error hook_id is required
    await client.GET('/projects/{id}/hooks/{hook_id}', { params: { path: { id: 5 } } });
  });

  it('rejects a wrong parameter type (the area has no request bodies)', async () => {
    // @ts-expect-error hook_id is an integer
    await client.GET('/projects/{id}/hooks/{hook_id}', { params: { path: { id: 5, hook_id: 'first' } } });
  });
});
