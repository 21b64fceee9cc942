// gitbeaker's `Integrations` resource (@gitbeaker/rest) against the server: `all`, `edit`, `show` and
// `disable`, which call `/projects/:id/integrations/…` (GitLab's name since 14.0), with camelCase options sent
// as a snake_case JSON body and a JSON `{}` body on the DELETE. The slugs gitbeaker knows by name are those
// without a brand (emails-on-push, external-wiki, custom-issue-tracker); a de-branded one is passed as it is.
// Every response of the API also goes through the suite's validating fetch (the spec's contract).
//
// On a shared server the file changes only the project it creates (its name carries RUN).
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { type Api, gitbeakerClients, refusal, validateGlobalFetch } from './gitbeakerSupport.js';

type IntegrationName = Parameters<Api['Integrations']['edit']>[1];

let target: Target;
const as = gitbeakerClients(() => target);

let restoreFetch = () => {};
/** A public project of this run in `namespace`, created by the owner through gitbeaker. */
let project: { id: number; path_with_namespace: string };

beforeAll(async () => {
  target = await openTarget();
  restoreFetch = validateGlobalFetch(target);
  const group = await as('owner').Groups.show(target.config.fixtures.namespace);
  project = (await as('owner').Projects.create({
    path: `gitbeaker-integrations-${RUN}`,
    namespaceId: group.id,
    visibility: 'public',
  })) as typeof project;
});
afterAll(async () => {
  restoreFetch();
  await target?.close();
});

describe('Integrations', () => {
  it('edits, shows, lists and disables emails-on-push (camelCase options)', async () => {
    const edited = await as('maintainer').Integrations.edit(project.id, 'emails-on-push', {
      recipients: 'dev@example.com ops@example.com',
      disableDiffs: true,
      branchesToBeNotified: 'default',
      tagPushEvents: false,
    });
    expect(edited).toMatchObject({
      slug: 'emails-on-push',
      active: true,
      push_events: true,
      tag_push_events: false,
      properties: {
        recipients: 'dev@example.com ops@example.com',
        disable_diffs: true,
        send_from_committer_email: false,
        branches_to_be_notified: 'default',
      },
    });
    const shown = await as('owner').Integrations.show(project.path_with_namespace, 'emails-on-push');
    expect(shown).toEqual(edited);
    const all = await as('maintainer').Integrations.all(project.id);
    expect(all.map((integration) => integration.slug)).toEqual(['emails-on-push']);
    expect(all[0]).not.toHaveProperty('properties');

    await as('maintainer').Integrations.disable(project.id, 'emails-on-push');
    expect(await as('maintainer').Integrations.all(project.id)).toEqual([]);
    // GitLab disables it and keeps its settings.
    expect(await as('maintainer').Integrations.show(project.id, 'emails-on-push')).toEqual({
      ...edited,
      active: false,
      updated_at: expect.any(String),
    });
  });

  it('sets up external-wiki and custom-issue-tracker; a team chat keeps its webhook secret', async () => {
    await as('maintainer').Integrations.edit(project.id, 'external-wiki', {
      externalWikiUrl: 'https://wiki.example.com/site',
    });
    await as('maintainer').Integrations.edit(project.id, 'custom-issue-tracker', {
      newIssueUrl: 'https://issues.example.com/new',
      issuesUrl: 'https://issues.example.com/:id',
      projectUrl: 'https://issues.example.com',
    });
    const webhook = `https://chat.example.com/hooks/${RUN}`;
    const chat = await as('maintainer').Integrations.edit(project.id, 'team-chat-c' as IntegrationName, {
      webhook,
      notifyOnlyDefaultBranch: true,
      pipelineEvents: true,
    });
    expect(chat.properties).toEqual({
      notify_only_broken_pipelines: true,
      branches_to_be_notified: 'default',
      notify_only_default_branch: true,
    });
    expect(JSON.stringify(chat)).not.toContain(webhook);
    const wiki = await as('maintainer').Integrations.show(project.id, 'external-wiki');
    expect(wiki.properties).toEqual({ external_wiki_url: 'https://wiki.example.com/site' });
    const slugs = (await as('owner').Integrations.all(project.id)).map((integration) => integration.slug);
    expect(slugs).toEqual(['external-wiki', 'custom-issue-tracker', 'team-chat-c']);
  });

  it('refuses a missing required setting (400), a developer (403) and a wrong token (401)', async () => {
    expect(
      await refusal(as('maintainer').Integrations.edit(project.id, 'emails-on-push', { disableDiffs: true })),
    ).toMatchObject({ status: 400 });
    expect(
      await refusal(
        as('developer').Integrations.edit(project.id, 'external-wiki', {
          externalWikiUrl: 'https://wiki.example.com',
        }),
      ),
    ).toMatchObject({ status: 403 });
    expect(await refusal(as('developer').Integrations.all(project.id))).toMatchObject({ status: 403 });
    const stranger = new Gitlab({ host: target.config.baseUrl, token: `no-such-token-${RUN}` });
    expect(await refusal(stranger.Integrations.all(project.id))).toEqual({
      status: 401,
      message: '401 Unauthorized',
    });
  });
});
