// Type-level tests of the Branches area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Branches: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.POST('/projects/{id}/repository/branches', {
      params: { path: { id: 5 } },
      body: { branch: 'feature/x', ref: 'main' },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['Branch'] | undefined>();
    const list = await client.GET('/projects/{id}/repository/branches', {
      params: { path: { id: 5 }, query: { search: '^feat', per_page: 100 } },
    });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['Branch'][] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error branches are under /repository
    await client.GET('/projects/{id}/branches', { params: { path: { id: 5 } } });
  });

  it('rejects a missing required parameter', async () => {
    await client.POST('/projects/{id}/repository/branches', {
      params: { path: { id: 5 } },
      // @ts-expect-error ref is required
      body: { branch: 'feature/x' },
    });
    // @ts-expect-error the branch name is required
    await client.DELETE('/projects/{id}/repository/branches/{branch}', { params: { path: { id: 5 } } });
  });

  it('rejects a wrong body', async () => {
    await client.POST('/projects/{id}/repository/branches', {
      params: { path: { id: 5 } },
      // @ts-expect-error branch is a string
      body: { branch: 7, ref: 'main' },
    });
  });
});
