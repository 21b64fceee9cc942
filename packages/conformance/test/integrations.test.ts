// Project integrations (document 2, 4.16): the 46 operations under `/projects/:id/services/…` and again
// under `/projects/:id/integrations/…` (GitLab ≥ 14.0). For every slug: set up, read, edit, list and delete,
// secrets never read back, the required parameters' 400s; the deprecated flag of team-chat-c; and the
// 401/403/404 matrix. Writes go to a private project this run creates, so a shared server's other runs and
// the demo's integrations are never touched.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

type Method = 'GET' | 'PUT' | 'DELETE';

let target: Target;
/** A private project of this run in the fixtures' namespace: the roles hold there, the outsider is no member. */
let project: string;
let publicProject: string;

const enc = encodeURIComponent;
const FAMILIES = ['services', 'integrations'] as const;
type Family = (typeof FAMILIES)[number];
const listPath = (id: string, family: Family) => `/projects/${enc(id)}/${family}`;
const slugPath = (id: string, family: Family, slug: string) => `/projects/${enc(id)}/${family}/${slug}`;

const call = (caller: Caller, method: Method, path: string, json?: Record<string, unknown>) =>
  callAs(target, caller, path, { method, json });

type IntegrationListItem = components['schemas']['IntegrationListItem'];
/** One integration as read or written: the list fields and `properties`, one schema per slug (`…Integration`). */
type Integration = components['schemas'][Extract<keyof components['schemas'], `${string}Integration`>];
type GroupDetails = components['schemas']['GroupDetails'];
type ProjectFull = components['schemas']['ProjectFull'];

/** A valid PUT per slug: its required parameters (and a few optional ones), and which of them are secrets. */
const SLUGS: Record<string, { body: Record<string, unknown>; required: string[]; secrets: string[] }> = {
  'commit-task-comments': {
    body: { api_key: `task-key-${RUN}`, restrict_to_branch: 'main,release' },
    required: ['api_key'],
    secrets: ['api_key'],
  },
  'source-commits-pm': {
    body: { token: `pm-token-${RUN}`, subdomain: 'acme' },
    required: ['token'],
    secrets: ['token'],
  },
  'build-server-a': {
    body: {
      buildserver_url: 'https://build.example.com',
      build_key: 'PROJ-PLAN',
      username: 'ci',
      password: `build-password-${RUN}`,
    },
    required: ['buildserver_url', 'build_key', 'username', 'password'],
    secrets: ['password'],
  },
  'issue-tracker-a': {
    body: {
      new_issue_url: 'https://tracker.example.com/new',
      issues_url: 'https://tracker.example.com/issues/:id',
      project_url: 'https://tracker.example.com/project',
      title: 'Tracker',
    },
    required: ['new_issue_url', 'issues_url', 'project_url'],
    secrets: [],
  },
  'custom-issue-tracker': {
    body: {
      new_issue_url: 'https://issues.example.com/new',
      issues_url: 'https://issues.example.com/:id',
      project_url: 'https://issues.example.com',
    },
    required: ['new_issue_url', 'issues_url', 'project_url'],
    secrets: [],
  },
  'build-pipeline-ci': {
    body: { token: `pipeline-token-${RUN}`, project_url: 'https://ci.example.com/acme/site' },
    required: ['token', 'project_url'],
    secrets: ['token'],
  },
  'group-chat-room': {
    body: { token: `room-token-${RUN}`, subdomain: 'acme', room: 'dev' },
    required: ['token'],
    secrets: ['token'],
  },
  'team-chat-a': {
    body: { webhook: `https://chat.example.com/hooks/a-${RUN}`, pipeline_events: true },
    required: ['webhook'],
    secrets: ['webhook'],
  },
  'team-chat-b': {
    body: { webhook: `https://chat.example.com/hooks/b-${RUN}`, branches_to_be_notified: 'protected' },
    required: ['webhook'],
    secrets: ['webhook'],
  },
  'team-chat-c': {
    body: { webhook: `https://chat.example.com/hooks/c-${RUN}` },
    required: ['webhook'],
    secrets: ['webhook'],
  },
  'ci-server-b': {
    body: { token: `ci-token-${RUN}`, ci_server_url: 'https://drone.example.com' },
    required: ['token', 'ci_server_url'],
    secrets: ['token'],
  },
  'emails-on-push': {
    body: { recipients: 'dev@example.com ops@example.com', disable_diffs: true },
    required: ['recipients'],
    secrets: [],
  },
  'external-wiki': {
    body: { external_wiki_url: 'https://wiki.example.com/acme' },
    required: ['external_wiki_url'],
    secrets: [],
  },
  'team-inbox-a': { body: { token: `inbox-token-${RUN}` }, required: ['token'], secrets: ['token'] },
  'code-host-status': {
    body: { token: `host-token-${RUN}`, repository_url: 'https://code.example.com/acme/site' },
    required: ['token', 'repository_url'],
    secrets: ['token'],
  },
};
const SLUG_NAMES = Object.keys(SLUGS);

function valid(slug: string): Record<string, unknown> {
  const entry = SLUGS[slug];
  if (!entry) throw new Error(`no body for ${slug}`);
  return entry.body;
}

async function expectStatus<T = Integration>(
  caller: Caller,
  method: Method,
  path: string,
  status: number,
  json?: Record<string, unknown>,
): Promise<T> {
  const answer = await call(caller, method, path, json);
  expect(answer.status, `${caller} ${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body as T;
}

beforeAll(async () => {
  target = await openTarget();
  publicProject = target.config.fixtures.publicProject;
  project = await newProject(`integrations-${RUN}`);
});

/** A new private project in the fixtures' namespace, without integrations; its full path. */
async function newProject(path: string): Promise<string> {
  const namespace = await expectStatus<GroupDetails>(
    'owner',
    'GET',
    `/groups/${enc(target.config.fixtures.namespace)}`,
    200,
  );
  const created = await callAs<ProjectFull>(target, 'owner', '/projects', {
    method: 'POST',
    json: { namespace_id: namespace.id, path, visibility: 'private' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.path_with_namespace;
}
afterAll(async () => {
  await target.close();
});

describe.each(FAMILIES)('every slug under /projects/:id/%s', (family) => {
  it.each(SLUG_NAMES)(
    '%s: set up, read, listed with its flags, edited, deleted (maintainer)',
    async (slug) => {
      const path = slugPath(project, family, slug);
      const entry = SLUGS[slug];
      if (!entry) throw new Error(slug);
      if (family === FAMILIES[0]) {
        // Never set up on this file's new project: unknown, and deleting it leaves it unknown.
        await expectStatus('maintainer', 'DELETE', path, 204);
        const notSetUp = await call('maintainer', 'GET', path);
        expect(notSetUp.status).toBe(404);
        expect(notSetUp.body).toEqual({ message: '404 Integration Not Found' });
      }

      const created = await expectStatus('maintainer', 'PUT', path, 200, entry.body);
      expect(created).toMatchObject({ slug, active: true });
      for (const [name, value] of Object.entries(entry.body)) {
        if (entry.secrets.includes(name)) continue;
        if (name.endsWith('_events')) expect(created[name as keyof Integration], name).toBe(value);
        else expect((created.properties as Record<string, unknown>)[name], name).toEqual(value);
      }
      const read = await expectStatus('maintainer', 'GET', path, 200);
      expect(read).toEqual(created);
      // The other name of the path reads the same integration.
      const other = family === 'services' ? 'integrations' : 'services';
      expect(await expectStatus('owner', 'GET', slugPath(project, other, slug), 200)).toEqual(created);

      // Secrets: never a property, never anywhere in the answer.
      for (const name of entry.secrets) {
        expect(read.properties, name).not.toHaveProperty(name);
        expect(JSON.stringify(read)).not.toContain(String(entry.body[name]));
      }

      const list = await expectStatus<IntegrationListItem[]>(
        'maintainer',
        'GET',
        listPath(project, family),
        200,
      );
      const listed = list.find((item) => item.slug === slug);
      expect(listed).toBeDefined();
      expect(listed).not.toHaveProperty('properties');
      expect({ ...created, properties: undefined }).toMatchObject({ ...listed, properties: undefined });

      // An edit with the required parameters only keeps the optional settings it does not give.
      const requiredOnly = Object.fromEntries(entry.required.map((name) => [name, entry.body[name]]));
      const edited = await expectStatus('owner', 'PUT', path, 200, requiredOnly);
      expect(edited.id).toBe(created.id);
      expect(edited.properties).toEqual(created.properties);

      // Deleting disables it and keeps its settings (GitLab's "Disable an integration").
      await expectStatus('maintainer', 'DELETE', path, 204);
      const disabled = await expectStatus('maintainer', 'GET', path, 200);
      expect(disabled).toMatchObject({ id: created.id, slug, active: false, properties: edited.properties });
      const after = await expectStatus<IntegrationListItem[]>(
        'maintainer',
        'GET',
        listPath(project, family),
        200,
      );
      expect(after.map((item) => item.slug)).not.toContain(slug);
    },
  );

  it.each(SLUG_NAMES)('%s: each required parameter missing is a 400 naming it', async (slug) => {
    const entry = SLUGS[slug];
    if (!entry) throw new Error(slug);
    for (const name of entry.required) {
      const { [name]: _left, ...rest } = entry.body;
      const answer = await call('maintainer', 'PUT', slugPath(project, family, slug), rest);
      expect(answer.status, name).toBe(400);
      expect(answer.body).toEqual({ error: `${name} is missing` });
    }
    // Nothing was set up or switched on: unknown, or still disabled by an earlier deletion.
    const read = await call('maintainer', 'GET', slugPath(project, family, slug));
    if (read.status === 200) expect(read.body).toMatchObject({ active: false });
    else expect(read.status).toBe(404);
  });
});

describe('settings', () => {
  it("team-chat-c's deprecated notify_only_default_branch sets branches_to_be_notified", async () => {
    const path = slugPath(project, 'integrations', 'team-chat-c');
    const webhook = `https://chat.example.com/hooks/deprecated-${RUN}`;
    const on = await expectStatus('maintainer', 'PUT', path, 200, {
      webhook,
      notify_only_default_branch: true,
    });
    expect(on.properties).toMatchObject({
      branches_to_be_notified: 'default',
      notify_only_default_branch: true,
    });
    const off = await expectStatus('maintainer', 'PUT', path, 200, {
      webhook,
      notify_only_default_branch: false,
    });
    expect(off.properties).toMatchObject({
      branches_to_be_notified: 'all',
      notify_only_default_branch: false,
    });
    // Given both, branches_to_be_notified wins.
    const both = await expectStatus('maintainer', 'PUT', path, 200, {
      webhook,
      notify_only_default_branch: true,
      branches_to_be_notified: 'protected',
    });
    expect(both.properties).toMatchObject({
      branches_to_be_notified: 'protected',
      notify_only_default_branch: false,
    });
    await expectStatus('maintainer', 'DELETE', path, 204);
  });

  it('team chats default to every branch and broken pipelines only; flags are set and kept', async () => {
    // A project of its own: the defaults are those of an integration never set up before.
    const path = slugPath(await newProject(`integrations-flags-${RUN}`), 'services', 'team-chat-a');
    const created = await expectStatus('maintainer', 'PUT', path, 200, {
      webhook: `https://chat.example.com/hooks/flags-${RUN}`,
      issues_events: false,
    });
    expect(created.properties).toEqual({
      notify_only_broken_pipelines: true,
      branches_to_be_notified: 'all',
    });
    expect(created).toMatchObject({ push_events: true, issues_events: false, pipeline_events: false });
    const edited = await expectStatus('maintainer', 'PUT', path, 200, {
      webhook: `https://chat.example.com/hooks/flags-${RUN}`,
      pipeline_events: true,
      notify_only_broken_pipelines: false,
    });
    expect(edited).toMatchObject({ push_events: true, issues_events: false, pipeline_events: true });
    expect(edited.properties).toMatchObject({ notify_only_broken_pipelines: false });
    await expectStatus('maintainer', 'DELETE', path, 204);
  });

  it('takes a form body and Grape boolean spellings', async () => {
    const answer = await callAs<Integration>(
      target,
      'maintainer',
      slugPath(project, 'integrations', 'emails-on-push'),
      {
        method: 'PUT',
        form: { recipients: 'a@example.com', send_from_committer_email: 'yes', tag_push_events: 'false' },
      },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.properties).toMatchObject({
      recipients: 'a@example.com',
      send_from_committer_email: true,
    });
    expect(answer.body.tag_push_events).toBe(false);
    await expectStatus('maintainer', 'DELETE', slugPath(project, 'integrations', 'emails-on-push'), 204);
  });

  it("refuses a blank required setting and a URL that is not one (400, in the models' words)", async () => {
    const blank = await call('maintainer', 'PUT', slugPath(project, 'integrations', 'team-inbox-a'), {
      token: '',
    });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: { token: ["can't be blank"] } });
    const notUrl = await call('maintainer', 'PUT', slugPath(project, 'services', 'team-chat-b'), {
      webhook: 'chat.example.com/hook',
    });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body).toEqual({ message: { webhook: ['is invalid'] } });
  });

  it('refuses a value outside branches_to_be_notified (400)', async () => {
    const answer = await call('maintainer', 'PUT', slugPath(project, 'services', 'emails-on-push'), {
      recipients: 'a@example.com',
      branches_to_be_notified: 'some',
    });
    expect(answer.status).toBe(400);
  });
});

describe('who may', () => {
  /** Every operation of both families, with a valid body for the PUTs. */
  const operations: [Method, (id: string) => string, Record<string, unknown> | undefined][] =
    FAMILIES.flatMap((family) => [
      ['GET', (id: string) => listPath(id, family), undefined] as const,
      ...SLUG_NAMES.flatMap((slug) => [
        ['GET', (id: string) => slugPath(id, family, slug), undefined] as const,
        ['PUT', (id: string) => slugPath(id, family, slug), valid(slug)] as const,
        ['DELETE', (id: string) => slugPath(id, family, slug), undefined] as const,
      ]),
    ]) as [Method, (id: string) => string, Record<string, unknown> | undefined][];

  it('has the 46 operations in both families', () => {
    expect(operations).toHaveLength(92);
  });

  const matrix: [Caller, 'private' | 'public', number][] = [
    ['anonymous', 'private', 401],
    ['invalid', 'private', 401],
    ['anonymous', 'public', 401],
    ['guest', 'private', 403],
    ['reporter', 'private', 403],
    ['developer', 'private', 403],
    ['outsider', 'private', 404],
    ['outsider', 'public', 403],
  ];
  it.each(matrix)(
    '%s on the %s project: %i for every operation',
    async (caller, which, status) => {
      const id = which === 'private' ? project : publicProject;
      for (const [method, path, json] of operations) {
        const answer = await call(caller, method, path(id), json);
        expect(answer.status, `${caller} ${method} ${path(id)}: ${JSON.stringify(answer.body)}`).toBe(status);
      }
      // 92 requests each, on a machine that may be busy.
    },
    180_000,
  );

  it('an unknown project is a 404 for maintainers too', async () => {
    await expectStatus('maintainer', 'GET', listPath(`no-such-group-${RUN}/nothing`, 'integrations'), 404);
    await expectStatus(
      'maintainer',
      'PUT',
      slugPath(`no-such-group-${RUN}/nothing`, 'services', 'external-wiki'),
      404,
      valid('external-wiki'),
    );
  });

  it("the owner and the administrator manage integrations too; the demo's public project lists its own", async () => {
    const path = slugPath(project, 'integrations', 'external-wiki');
    await expectStatus('owner', 'PUT', path, 200, valid('external-wiki'));
    await expectStatus('admin', 'GET', path, 200);
    await expectStatus('admin', 'DELETE', path, 204);
    const list = await expectStatus<IntegrationListItem[]>(
      'maintainer',
      'GET',
      listPath(publicProject, 'integrations'),
      200,
    );
    for (const item of list) expect(item.active).toBe(true);
  });
});
