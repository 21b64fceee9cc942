// Type-level tests of the Repository files area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Repository files: client types', () => {
  it('types a correct call and its response', async () => {
    // file_path contains '/'; openapi-fetch encodes it as %2F.
    const { data } = await client.GET('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id: 5, file_path: 'app/models/key.rb' }, query: { ref: 'main' } },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['RepositoryFile'] | undefined>();
    const created = await client.POST('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id: 5, file_path: 'docs/new.md' } },
      body: { branch: 'main', content: 'aGVsbG8=', encoding: 'base64', commit_message: 'Add docs' },
    });
    expectTypeOf(created.data).branded.toEqualTypeOf<Schemas['RepositoryFileWriteResult'] | undefined>();
    const blame = await client.GET('/projects/{id}/repository/files/{file_path}/blame', {
      params: { path: { id: 5, file_path: 'README.md' }, query: { ref: 'main' } },
    });
    expectTypeOf(blame.data).branded.toEqualTypeOf<Schemas['RepositoryFileBlameRange'][] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error the collection is repository/files (plural)
    await client.GET('/projects/{id}/repository/file/{file_path}', {
      params: { path: { id: 5, file_path: 'a' } },
    });
  });

  it('rejects a missing required parameter', async () => {
    await client.GET('/projects/{id}/repository/files/{file_path}', {
      // @ts-expect-error ref is required
      params: { path: { id: 5, file_path: 'README.md' }, query: {} },
    });
    await client.DELETE('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id: 5, file_path: 'README.md' } },
      // @ts-expect-error commit_message is required
      body: { branch: 'main' },
    });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id: 5, file_path: 'README.md' } },
      // @ts-expect-error encoding is text or base64
      body: { branch: 'main', content: 'x', commit_message: 'Edit', encoding: 'utf8' },
    });
  });
});
