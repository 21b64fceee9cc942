// Type-level tests of the Project snippets area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Project snippets: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.POST('/projects/{id}/snippets', {
      params: { path: { id: 5 } },
      body: { title: 'Example', file_name: 'example.txt', content: 'hello', visibility: 'private' },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['ProjectSnippet'] | undefined>();
    const raw = await client.GET('/projects/{id}/snippets/{snippet_id}/raw', {
      params: { path: { id: 5, snippet_id: 1 } },
      parseAs: 'text',
    });
    expectTypeOf(raw.data).branded.toEqualTypeOf<string | undefined>();
    const detail = await client.GET('/projects/{id}/snippets/{snippet_id}/user_agent_detail', {
      params: { path: { id: 5, snippet_id: 1 } },
    });
    expectTypeOf(detail.data).branded.toEqualTypeOf<Schemas['SnippetUserAgentDetail'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error the path segment is snippets, not snippet
    await client.GET('/projects/{id}/snippet/{snippet_id}', { params: { path: { id: 5, snippet_id: 1 } } });
  });

  it('rejects a missing required parameter', async () => {
    await client.POST('/projects/{id}/snippets', {
      params: { path: { id: 5 } },
      // @ts-expect-error visibility is required for project snippets
      body: { title: 'Example', file_name: 'example.txt', content: 'hello' },
    });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/projects/{id}/snippets/{snippet_id}', {
      params: { path: { id: 5, snippet_id: 1 } },
      // @ts-expect-error visibility is private, internal or public
      body: { visibility: 'secret' },
    });
  });
});
