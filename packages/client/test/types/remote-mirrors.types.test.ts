// Type-level tests of the Remote mirrors area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Remote mirrors: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.POST('/projects/{id}/remote_mirrors', {
      params: { path: { id: 5 } },
      body: { url: 'https://user:secret@example.com/repo.git', enabled: true, only_protected_branches: true },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['RemoteMirror'] | undefined>();
    const list = await client.GET('/projects/{id}/remote_mirrors', { params: { path: { id: 5 } } });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['RemoteMirror'][] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error a single mirror cannot be deleted in this API
    await client.DELETE('/projects/{id}/remote_mirrors/{mirror_id}', {
      params: { path: { id: 5, mirror_id: 1 } },
    });
  });

  it('rejects a missing required parameter', async () => {
    await client.POST('/projects/{id}/remote_mirrors', {
      params: { path: { id: 5 } },
      // @ts-expect-error url is required
      body: { enabled: true },
    });
    // @ts-expect-error mirror_id is required
    await client.PUT('/projects/{id}/remote_mirrors/{mirror_id}', { params: { path: { id: 5 } }, body: {} });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/projects/{id}/remote_mirrors/{mirror_id}', {
      params: { path: { id: 5, mirror_id: 1 } },
      // @ts-expect-error enabled is a boolean
      body: { enabled: 'true' },
    });
  });
});
