// Type-level tests of the Todos area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Todos: client types', () => {
  it('types a correct call and its response', async () => {
    const list = await client.GET('/todos', {
      params: { query: { action: 'mentioned', state: 'pending', type: 'MergeRequest', project_id: 5 } },
    });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['Todo'][] | undefined>();
    const { data } = await client.POST('/todos/{id}/mark_as_done', { params: { path: { id: 102 } } });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['Todo'] | undefined>();
    const all = await client.POST('/todos/mark_as_done');
    expectTypeOf(all.data).branded.toEqualTypeOf<undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error to-dos are completed with a POST
    await client.PUT('/todos/{id}/mark_as_done', { params: { path: { id: 102 } } });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error the to-do id is required
    await client.POST('/todos/{id}/mark_as_done', { params: { path: {} } });
  });

  it('rejects a wrong parameter type (the area has no request bodies)', async () => {
    // @ts-expect-error state is pending or done
    await client.GET('/todos', { params: { query: { state: 'open' } } });
    // @ts-expect-error action is one of the seven actions
    await client.GET('/todos', { params: { query: { action: 'commented' } } });
  });
});
