// Type-level tests of the Projects area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Projects: client types', () => {
  it('types a correct call and its response', async () => {
    const list = await client.GET('/projects', {
      params: { query: { order_by: 'id', pagination: 'keyset', id_after: 10, simple: true } },
    });
    expectTypeOf(list.data).branded.toEqualTypeOf<
      (Schemas['ProjectFull'] | Schemas['ProjectSummary'])[] | undefined
    >();
    const { data } = await client.POST('/projects/{id}/archive', {
      params: { path: { id: 'group/project' } },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['ProjectFull'] | undefined>();
    const shared = await client.POST('/projects/{id}/share', {
      params: { path: { id: 5 } },
      body: { group_id: 7, group_access: 30, expires_at: '2026-12-31' },
    });
    expectTypeOf(shared.data).branded.toEqualTypeOf<Schemas['ProjectGroupLink'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error the archive operation is a POST, there is no GET
    await client.GET('/projects/{id}/archive', { params: { path: { id: 5 } } });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error group_access is required
    await client.POST('/projects/{id}/share', { params: { path: { id: 5 } }, body: { group_id: 7 } });
  });

  it('rejects a wrong body', async () => {
    await client.POST('/projects/{id}/share', {
      params: { path: { id: 5 } },
      // @ts-expect-error 35 is not an access level
      body: { group_id: 7, group_access: 35 },
    });
    // @ts-expect-error visibility is public, internal or private
    await client.GET('/projects', { params: { query: { visibility: 'secret' } } });
  });
});
