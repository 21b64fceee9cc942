// Type-level tests of the Integrations area (see groups.types.test.ts). Every slug has its own path and body
// schema, so each PUT is checked for its required fields.
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});
const path = { id: 5 };

describe('Integrations: client types', () => {
  it('types a correct call and its response', async () => {
    const list = await client.GET('/projects/{id}/services', { params: { path } });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['IntegrationListItem'][] | undefined>();
    const { data } = await client.PUT('/projects/{id}/services/emails-on-push', {
      params: { path },
      body: { recipients: 'a@example.com b@example.com', branches_to_be_notified: 'default_and_protected' },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['EmailsOnPushIntegration'] | undefined>();
    const chat = await client.GET('/projects/{id}/services/team-chat-c', { params: { path } });
    expectTypeOf(chat.data).branded.toEqualTypeOf<Schemas['TeamChatCIntegration'] | undefined>();
    await client.PUT('/projects/{id}/services/team-chat-c', {
      params: { path },
      body: {
        webhook: 'https://chat.example.com/hook',
        notify_only_default_branch: true,
        pipeline_events: true,
      },
    });
    await client.DELETE('/projects/{id}/services/code-host-status', { params: { path } });
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error slugs are fixed paths; there is no generic /services/{slug}
    await client.GET('/projects/{id}/services/{slug}', { params: { path: { id: 5, slug: 'team-chat-a' } } });
    // @ts-expect-error an unknown slug
    await client.PUT('/projects/{id}/services/team-chat-d', { params: { path }, body: {} });
  });

  it('rejects a missing required parameter, for every slug', async () => {
    await client.PUT('/projects/{id}/services/commit-task-comments', {
      params: { path },
      // @ts-expect-error api_key is required
      body: { push_events: true },
    });
    await client.PUT('/projects/{id}/services/source-commits-pm', {
      params: { path },
      // @ts-expect-error token is required
      body: { subdomain: 'acme' },
    });
    await client.PUT('/projects/{id}/services/build-server-a', {
      params: { path },
      // @ts-expect-error password is required
      body: { buildserver_url: 'https://ci.example.com', build_key: 'KEY', username: 'ci' },
    });
    await client.PUT('/projects/{id}/services/issue-tracker-a', {
      params: { path },
      // @ts-expect-error project_url is required
      body: { new_issue_url: 'https://t.example.com/new', issues_url: 'https://t.example.com/:id' },
    });
    await client.PUT('/projects/{id}/services/custom-issue-tracker', {
      params: { path },
      // @ts-expect-error issues_url is required
      body: { new_issue_url: 'https://t.example.com/new', project_url: 'https://t.example.com' },
    });
    await client.PUT('/projects/{id}/services/build-pipeline-ci', {
      params: { path },
      // @ts-expect-error project_url is required
      body: { token: 'secret' },
    });
    // @ts-expect-error token is required
    await client.PUT('/projects/{id}/services/group-chat-room', { params: { path }, body: { room: 'dev' } });
    await client.PUT('/projects/{id}/services/team-chat-a', {
      params: { path },
      // @ts-expect-error webhook is required
      body: { push_events: true },
    });
    await client.PUT('/projects/{id}/services/team-chat-b', {
      params: { path },
      // @ts-expect-error webhook is required
      body: { note_events: true },
    });
    await client.PUT('/projects/{id}/services/team-chat-c', {
      params: { path },
      // @ts-expect-error webhook is required
      body: { pipeline_events: true },
    });
    await client.PUT('/projects/{id}/services/ci-server-b', {
      params: { path },
      // @ts-expect-error ci_server_url is required
      body: { token: 'secret' },
    });
    await client.PUT('/projects/{id}/services/emails-on-push', {
      params: { path },
      // @ts-expect-error recipients is required
      body: { disable_diffs: true },
    });
    // @ts-expect-error external_wiki_url is required
    await client.PUT('/projects/{id}/services/external-wiki', { params: { path }, body: {} });
    await client.PUT('/projects/{id}/services/team-inbox-a', {
      params: { path },
      // @ts-expect-error token is required
      body: { push_events: true },
    });
    await client.PUT('/projects/{id}/services/code-host-status', {
      params: { path },
      // @ts-expect-error repository_url is required
      body: { token: 'secret' },
    });
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/projects/{id}/services/emails-on-push', {
      params: { path },
      // @ts-expect-error branches_to_be_notified is all, default, protected or default_and_protected
      body: { recipients: 'a@example.com', branches_to_be_notified: 'everything' },
    });
    await client.PUT('/projects/{id}/services/team-chat-a', {
      params: { path },
      // @ts-expect-error push_events is a boolean
      body: { webhook: 'https://chat.example.com/hook', push_events: 'yes' },
    });
  });
});
