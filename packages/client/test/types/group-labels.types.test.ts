// Type-level tests of the Group labels area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Group labels: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.POST('/groups/{id}/labels', {
      params: { path: { id: 7 } },
      body: { name: 'bug', color: '#FF0000', description: 'Something is broken' },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['GroupLabel'] | undefined>();
    const subscribed = await client.POST('/groups/{id}/labels/{label_id}/subscribe', {
      params: { path: { id: 7, label_id: 'bug' } },
    });
    expectTypeOf(subscribed.data).branded.toEqualTypeOf<Schemas['GroupLabel'] | undefined>();
    // The deprecated form addresses the label by name in the body.
    const renamed = await client.PUT('/groups/{id}/labels', {
      params: { path: { id: 7 } },
      body: { name: 'bug', new_name: 'defect' },
    });
    expectTypeOf(renamed.data).branded.toEqualTypeOf<Schemas['GroupLabel'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error there is no label rename sub-resource
    await client.POST('/groups/{id}/labels/{label_id}/rename', { params: { path: { id: 7, label_id: 1 } } });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error color is required
    await client.POST('/groups/{id}/labels', { params: { path: { id: 7 } }, body: { name: 'bug' } });
    // @ts-expect-error the deprecated update form needs the name
    await client.PUT('/groups/{id}/labels', { params: { path: { id: 7 } }, body: { new_name: 'defect' } });
    // @ts-expect-error the deprecated delete form needs the name
    await client.DELETE('/groups/{id}/labels', { params: { path: { id: 7 } }, body: {} });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/groups/{id}/labels/{label_id}', {
      params: { path: { id: 7, label_id: 1 } },
      // @ts-expect-error color is a string
      body: { color: 0xff0000 },
    });
    await client.PUT('/groups/{id}/labels', {
      params: { path: { id: 7 } },
      // @ts-expect-error the deprecated form names the label in `name`, a string
      body: { name: 5, new_name: 'defect' },
    });
    await client.GET('/groups/{id}/labels', {
      // @ts-expect-error with_counts is a boolean
      params: { path: { id: 7 }, query: { with_counts: 'yes' } },
    });
  });
});
