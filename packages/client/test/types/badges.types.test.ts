// Type-level tests of the Badges area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Badges: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.POST('/projects/{id}/badges', {
      params: { path: { id: 5 } },
      body: {
        link_url: 'http://example.com/ci_status.svg?project=%{project_path}&ref=%{default_branch}',
        image_url: 'https://shields.io/my/badge',
      },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['Badge'] | undefined>();
    const preview = await client.GET('/groups/{id}/badges/render', {
      params: {
        path: { id: 7 },
        query: { link_url: 'http://example.com/%{project_id}', image_url: 'https://x/y.svg' },
      },
    });
    expectTypeOf(preview.data).branded.toEqualTypeOf<Schemas['BadgePreview'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error render is a GET
    await client.POST('/projects/{id}/badges/render', { params: { path: { id: 5 } } });
  });

  it('rejects a missing required parameter', async () => {
    await client.GET('/projects/{id}/badges/render', {
      // @ts-expect-error image_url is required
      params: { path: { id: 5 }, query: { link_url: 'http://example.com' } },
    });
    await client.POST('/groups/{id}/badges', {
      params: { path: { id: 7 } },
      // @ts-expect-error link_url is required
      body: { image_url: 'https://x/y.svg' },
    });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/groups/{id}/badges/{badge_id}', {
      params: { path: { id: 7, badge_id: 2 } },
      // @ts-expect-error link_url is a string
      body: { link_url: 42 },
    });
  });
});
