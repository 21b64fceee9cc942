// Type-level tests of the Features (feature flags) area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Features: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.POST('/features/{name}', {
      params: { path: { name: 'new_ui' } },
      body: {
        value: 30,
        key: 'percentage_of_actors',
        user: 'ada',
        group: 'my-group',
        project: 'my-group/my-project',
      },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['Feature'] | undefined>();
    await client.POST('/features/{name}', { params: { path: { name: 'new_ui' } }, body: { value: 'true' } });
    const list = await client.GET('/features');
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['Feature'][] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error features are set with POST
    await client.PUT('/features/{name}', { params: { path: { name: 'new_ui' } }, body: { value: 'true' } });
  });

  it('rejects a missing required parameter', async () => {
    await client.POST('/features/{name}', {
      params: { path: { name: 'new_ui' } },
      // @ts-expect-error value is required
      body: { key: 'percentage_of_time' },
    });
  });

  it('rejects a wrong body', async () => {
    await client.POST('/features/{name}', {
      params: { path: { name: 'new_ui' } },
      // @ts-expect-error key is percentage_of_time or percentage_of_actors
      body: { value: 50, key: 'percentage_of_users' },
    });
  });
});
