// Type-level tests of the Deploy keys area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Deploy keys: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.POST('/projects/{id}/deploy_keys', {
      params: { path: { id: 5 } },
      body: { title: 'CI', key: 'ssh-ed25519 AAAA… ci@example.com', can_push: false },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['DeployKey'] | undefined>();
    const all = await client.GET('/deploy_keys');
    expectTypeOf(all.data).branded.toEqualTypeOf<Schemas['DeployKeyInstance'][] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error keys are enabled with a POST
    await client.PUT('/projects/{id}/deploy_keys/{key_id}/enable', {
      params: { path: { id: 5, key_id: 1 } },
    });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error key is required
    await client.POST('/projects/{id}/deploy_keys', { params: { path: { id: 5 } }, body: { title: 'CI' } });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/projects/{id}/deploy_keys/{key_id}', {
      params: { path: { id: 5, key_id: 1 } },
      // @ts-expect-error can_push is a boolean
      body: { can_push: 'yes' },
    });
  });
});
