// Type-level tests of the Protected branches area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Protected branches: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.POST('/projects/{id}/protected_branches', {
      params: { path: { id: 5 } },
      body: {
        name: 'release/*',
        push_access_level: 0,
        merge_access_level: 40,
        allowed_to_push: [{ user_id: 1 }],
      },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['ProtectedBranch'] | undefined>();
    const updated = await client.PATCH('/projects/{id}/protected_branches/{name}', {
      params: { path: { id: 5, name: 'release/*' } },
      body: { code_owner_approval_required: true },
    });
    expectTypeOf(updated.data).branded.toEqualTypeOf<Schemas['ProtectedBranch'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error protected branches are changed with PATCH
    await client.PUT('/projects/{id}/protected_branches/{name}', {
      params: { path: { id: 5, name: 'main' } },
    });
  });

  it('rejects a missing required parameter', async () => {
    await client.POST('/projects/{id}/protected_branches', {
      params: { path: { id: 5 } },
      // @ts-expect-error name is required
      body: { push_access_level: 40 },
    });
  });

  it('rejects a wrong body', async () => {
    await client.POST('/projects/{id}/protected_branches', {
      params: { path: { id: 5 } },
      // @ts-expect-error 50 is not an access level of protected branches (0, 30, 40, 60)
      body: { name: 'main', push_access_level: 50 },
    });
  });
});
