// Type-level tests of the Epics area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Epics: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.GET('/groups/{id}/epics/{epic_iid}', {
      params: { path: { id: 'my-group', epic_iid: 5 } },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['Epic'] | undefined>();
    const closed = await client.PUT('/groups/{id}/epics/{epic_iid}', {
      params: { path: { id: 7, epic_iid: 5 } },
      body: { state_event: 'close', due_date_is_fixed: true, due_date_fixed: '2026-03-31' },
    });
    expectTypeOf(closed.data).branded.toEqualTypeOf<Schemas['Epic'] | undefined>();
    const list = await client.GET('/groups/{id}/epics', {
      params: {
        path: { id: 7 },
        query: { state: 'all', include_descendant_groups: false, my_reaction_emoji: 'Any' },
      },
    });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['Epic'][] | undefined>();
    const todo = await client.POST('/groups/{id}/epics/{epic_iid}/todo', {
      params: { path: { id: 7, epic_iid: 5 } },
    });
    expectTypeOf(todo.data).branded.toEqualTypeOf<Schemas['Todo'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error epics belong to groups, not projects
    await client.GET('/projects/{id}/epics', { params: { path: { id: 5 } } });
  });

  it('rejects a missing required parameter', async () => {
    await client.POST('/groups/{id}/epics', {
      params: { path: { id: 7 } },
      // @ts-expect-error title is required
      body: { description: 'No title' },
    });
    // @ts-expect-error epic_iid is required
    await client.GET('/groups/{id}/epics/{epic_iid}', { params: { path: { id: 7 } } });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/groups/{id}/epics/{epic_iid}', {
      params: { path: { id: 7, epic_iid: 5 } },
      // @ts-expect-error state_event is close or reopen
      body: { state_event: 'shut' },
    });
    await client.POST('/groups/{id}/epics', {
      params: { path: { id: 7 } },
      // @ts-expect-error confidential is a boolean
      body: { title: 'Epic', confidential: 'yes' },
    });
    // @ts-expect-error state filters are opened, closed or all
    await client.GET('/groups/{id}/epics', { params: { path: { id: 7 }, query: { state: 'open' } } });
  });
});
