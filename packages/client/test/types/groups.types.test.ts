// Type-level tests of the Groups area: tsc (the `typecheck` script) proves the client accepts a correct call
// and rejects a wrong path, a missing required parameter and a wrongly typed parameter. The calls run against
// a stub fetch; only the types are asserted.
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Groups: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.GET('/groups/{id}', {
      params: { path: { id: 'my-group/sub' }, query: { with_custom_attributes: true } },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['GroupDetails'] | undefined>();
    const list = await client.GET('/groups', { params: { query: { order_by: 'path', sort: 'desc' } } });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['Group'][] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error there is no /group/{id}
    await client.GET('/group/{id}', { params: { path: { id: 1 } } });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error the subgroups list needs the group id
    await client.GET('/groups/{id}/subgroups', { params: { path: {} } });
  });

  it('rejects a wrong parameter type (the area has no request bodies)', async () => {
    // @ts-expect-error order_by is name, path or id
    await client.GET('/groups', { params: { query: { order_by: 'size' } } });
    // @ts-expect-error skip_groups is an array of integers
    await client.GET('/groups', { params: { query: { skip_groups: 'a,b' } } });
  });
});
