// Type-level tests of the Project repository storage moves area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Project repository storage moves: client types', () => {
  it('types a correct call and its response', async () => {
    const list = await client.GET('/project_repository_storage_moves', {
      params: { query: { page: 1, per_page: 20 } },
    });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['ProjectRepositoryStorageMove'][] | undefined>();
    const { data } = await client.GET('/project_repository_storage_moves/{id}', {
      params: { path: { id: 1 } },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['ProjectRepositoryStorageMove'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error moves are not scheduled through this API
    await client.POST('/project_repository_storage_moves', { body: {} });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error the move id is required
    await client.GET('/project_repository_storage_moves/{id}', { params: { path: {} } });
  });

  it('rejects a wrong parameter type (the area has no request bodies)', async () => {
    // @ts-expect-error per_page is an integer
    await client.GET('/project_repository_storage_moves', { params: { query: { per_page: 'all' } } });
    // @ts-expect-error the move id is an integer
    await client.GET('/project_repository_storage_moves/{id}', { params: { path: { id: 'first' } } });
  });
});
