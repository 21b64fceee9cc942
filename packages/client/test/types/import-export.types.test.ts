// Type-level tests of the Project import/export area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Project import/export: client types', () => {
  it('types a correct call and its response', async () => {
    const scheduled = await client.POST('/projects/{id}/export', {
      params: { path: { id: 5 } },
      body: {
        description: 'Nightly',
        upload: { url: 'https://storage.example.com/put', http_method: 'PUT' },
      },
    });
    expectTypeOf(scheduled.data).branded.toEqualTypeOf<Schemas['ProjectExportScheduled'] | undefined>();
    const { data } = await client.GET('/projects/{id}/export', { params: { path: { id: 5 } } });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['ProjectExportStatus'] | undefined>();
    const imported = await client.POST('/projects/import', {
      body: { file: 'archive-bytes', path: 'imported-project', namespace: 'my-group', overwrite: false },
      bodySerializer: (body) => {
        const form = new FormData();
        for (const [key, value] of Object.entries(body)) form.append(key, String(value));
        return form;
      },
    });
    expectTypeOf(imported.data).branded.toEqualTypeOf<Schemas['ProjectImportStatus'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error the import is POST /projects/import, not per project
    await client.POST('/projects/{id}/import', { params: { path: { id: 5 } } });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error path is required
    await client.POST('/projects/import', { body: { file: 'archive-bytes' } });
    await client.POST('/projects/{id}/export', {
      params: { path: { id: 5 } },
      // @ts-expect-error upload needs its url
      body: { upload: { http_method: 'POST' } },
    });
  });

  it('rejects a wrong body', async () => {
    await client.POST('/projects/{id}/export', {
      params: { path: { id: 5 } },
      // @ts-expect-error http_method is PUT or POST
      body: { upload: { url: 'https://storage.example.com/put', http_method: 'PATCH' } },
    });
  });
});
