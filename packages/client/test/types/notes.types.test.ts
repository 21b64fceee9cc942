// Type-level tests of the Notes area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Notes: client types', () => {
  it('types a correct call and its response', async () => {
    const created = await client.POST('/projects/{id}/issues/{issue_iid}/notes', {
      params: { path: { id: 5, issue_iid: 1 } },
      body: { body: 'Looks good', created_at: '2026-01-01T10:00:00Z' },
    });
    // An award-emoji-only body answers with the emoji instead of a note.
    expectTypeOf(created.data).branded.toEqualTypeOf<Schemas['Note'] | Schemas['AwardEmoji'] | undefined>();
    const { data } = await client.PUT('/groups/{id}/epics/{epic_id}/notes/{note_id}', {
      params: { path: { id: 7, epic_id: 3, note_id: 9 } },
      body: { body: 'Edited' },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['Note'] | undefined>();
    const list = await client.GET('/projects/{id}/merge_requests/{merge_request_iid}/notes', {
      params: { path: { id: 5, merge_request_iid: 2 }, query: { sort: 'asc', order_by: 'updated_at' } },
    });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['Note'][] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error label notes are not part of the API
    await client.GET('/projects/{id}/labels/{label_id}/notes', { params: { path: { id: 5, label_id: 1 } } });
  });

  it('rejects a missing required parameter', async () => {
    await client.POST('/projects/{id}/snippets/{snippet_id}/notes', {
      params: { path: { id: 5, snippet_id: 1 } },
      // @ts-expect-error body is required
      body: {},
    });
    await client.DELETE('/projects/{id}/issues/{issue_iid}/notes/{note_id}', {
      // @ts-expect-error note_id is required
      params: { path: { id: 5, issue_iid: 1 } },
    });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/projects/{id}/issues/{issue_iid}/notes/{note_id}', {
      params: { path: { id: 5, issue_iid: 1, note_id: 9 } },
      // @ts-expect-error body is a string
      body: { body: 42 },
    });
    await client.GET('/projects/{id}/issues/{issue_iid}/notes', {
      // @ts-expect-error sort is asc or desc
      params: { path: { id: 5, issue_iid: 1 }, query: { sort: 'newest' } },
    });
  });
});
