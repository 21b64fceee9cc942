// Type-level tests of the (user) Snippets area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Snippets: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.POST('/snippets', {
      body: { title: 'Example', file_name: 'example.txt', content: 'hello', visibility: 'public' },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['Snippet'] | undefined>();
    const list = await client.GET('/snippets/public', { params: { query: { page: 2, per_page: 10 } } });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['Snippet'][] | undefined>();
    const raw = await client.GET('/snippets/{id}/raw', { params: { path: { id: 1 } }, parseAs: 'text' });
    expectTypeOf(raw.data).branded.toEqualTypeOf<string | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error public snippets are read-only
    await client.POST('/snippets/public', { body: {} });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error title is required (content or files may be given)
    await client.POST('/snippets', { body: { content: 'hello', file_name: 'example.txt' } });
    // @ts-expect-error the snippet id is required
    await client.DELETE('/snippets/{id}', { params: { path: {} } });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/snippets/{id}', {
      params: { path: { id: 1 } },
      // @ts-expect-error title is a string
      body: { title: ['Example'] },
    });
  });
});
