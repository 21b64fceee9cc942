// Type-level tests of the SCIM area (see groups.types.test.ts).
// The SCIM paths are served under {base_url}/api/scim/v2, not under /api/v4, so createCollabClient (whose base
// is /api/v4 and whose auth is PRIVATE-TOKEN) is not the client for them: these tests build a plain
// openapi-fetch client over the same `paths` with the SCIM base URL and the Bearer token.
import createClient from 'openapi-fetch';
import { describe, expectTypeOf, it } from 'vitest';
import type { components, paths } from '../../src/index.js';

type Schemas = components['schemas'];
const scim = createClient<paths>({
  baseUrl: 'http://127.0.0.1:1/api/scim/v2',
  headers: { Authorization: 'Bearer scim-token', 'Content-Type': 'application/scim+json' },
  fetch: async () => new Response('[]'),
});

describe('SCIM: client types', () => {
  it('types a correct call and its response', async () => {
    const list = await scim.GET('/groups/{group_path}/Users', {
      params: {
        path: { group_path: 'my-group' },
        query: { filter: 'id eq "0b1c2d3e"', startIndex: 1, count: 10 },
      },
    });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['ScimUserList'] | undefined>();
    const { data } = await scim.POST('/groups/{group_path}/Users', {
      params: { path: { group_path: 'my-group' } },
      body: {
        externalId: '0b1c2d3e',
        userName: 'ghopper',
        emails: [{ type: 'work', value: 'grace@example.com', primary: true }],
        name: { formatted: 'Grace Hopper', familyName: 'Hopper', givenName: 'Grace' },
      },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['ScimUser'] | undefined>();
    const patched = await scim.PATCH('/groups/{group_path}/Users/{id}', {
      params: { path: { group_path: 'my-group', id: '0b1c2d3e' } },
      body: { Operations: [{ op: 'Replace', path: 'active', value: false }] },
    });
    expectTypeOf(patched.data).branded.toEqualTypeOf<undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error SCIM users are under /groups/{group_path}/Users (capital U)
    await scim.GET('/groups/{group_path}/users', { params: { path: { group_path: 'my-group' } } });
  });

  it('rejects a missing required parameter', async () => {
    await scim.POST('/groups/{group_path}/Users', {
      params: { path: { group_path: 'my-group' } },
      // @ts-expect-error userName, emails and name are required
      body: { externalId: '0b1c2d3e' },
    });
    // @ts-expect-error the external UID is required
    await scim.DELETE('/groups/{group_path}/Users/{id}', { params: { path: { group_path: 'my-group' } } });
  });

  it('rejects a wrong body', async () => {
    await scim.PATCH('/groups/{group_path}/Users/{id}', {
      params: { path: { group_path: 'my-group', id: '0b1c2d3e' } },
      // @ts-expect-error an operation's value is required
      body: { Operations: [{ op: 'Replace', path: 'active' }] },
    });
  });
});
