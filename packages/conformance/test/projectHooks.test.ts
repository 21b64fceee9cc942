// Project hooks (document 2, sections 2, 4.3 and 6): listing and reading a project's hooks, who may (GitLab:
// maintainers and above; 401 without a valid token, 404 for a project the caller may not see, 403 below
// maintainer), and, on a fresh local server whose fixture hooks point at a receiver this test starts, the
// deliveries: a commit through the API sends a push event, a pipeline sends pipeline events, and a hook
// whose branch filter does not match gets nothing.
//
// The server under test needs at least one hook on `publicProject` and one on `privateProject` (the demo
// fixtures have them); the suite finds their IDs through the list.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig, openTarget, RUN, startLocalServer, type Target, targetFor } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';
import { type Receiver, startReceiver } from './uploadReceiver.js';
import { waitFor } from './waitFor.js';

type Hook = components['schemas']['ProjectHook'];

let target: Target;
let publicProject: string;
let privateProject: string;
let publicHook: Hook;
let privateHook: Hook;

const enc = encodeURIComponent;
const hooksPath = (project: string, rest = '') => `/projects/${enc(project)}/hooks${rest}`;

/** A GET as `caller` (callAs validates every response). */
const call = (caller: Caller, path: string, query: Record<string, string> = {}) =>
  callAs(target, caller, path, { query });

async function firstHookOf(project: string): Promise<Hook> {
  const { status, body } = await call('maintainer', hooksPath(project));
  expect(status).toBe(200);
  const hook = (body as Hook[])[0];
  if (!hook) throw new Error(`${project} needs a project hook for this suite (see the file's header)`);
  return hook;
}

beforeAll(async () => {
  target = await openTarget();
  ({ publicProject, privateProject } = target.config.fixtures);
  publicHook = await firstHookOf(publicProject);
  privateHook = await firstHookOf(privateProject);
});
afterAll(async () => {
  await target.close();
});

const MAY_READ: readonly Caller[] = ['maintainer', 'owner', 'admin'];

describe('GET /projects/:id/hooks', () => {
  it('lists the hooks to maintainers, owners and administrators, with pagination headers and no token', async () => {
    for (const caller of MAY_READ) {
      const { status, body, headers } = await call(caller, hooksPath(publicProject));
      expect(status, caller).toBe(200);
      const hooks = body as Hook[];
      expect(hooks.length).toBeGreaterThan(0);
      expect(hooks[0]).toEqual(publicHook);
      for (const hook of hooks) {
        expect(hook).not.toHaveProperty('token');
        expect(hook.project_id).toBe(publicHook.project_id);
      }
      expect(headers.get('X-Total')).toBe(String(hooks.length));
      expect(headers.get('X-Page')).toBe('1');
    }
  });

  it('pages: per_page=1 gives one hook, a page past the end none', async () => {
    const first = await call('maintainer', hooksPath(publicProject), { per_page: '1' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual([publicHook]);
    expect(first.headers.get('X-Per-Page')).toBe('1');
    const past = await call('maintainer', hooksPath(publicProject), { page: '1000' });
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
  });

  it('answers 401 without a valid token, even for a private project', async () => {
    for (const caller of ['anonymous', 'invalid', 'revoked'] as const) {
      expect((await call(caller, hooksPath(publicProject))).status, caller).toBe(401);
      expect((await call(caller, hooksPath(privateProject))).status, caller).toBe(401);
    }
  });

  it('answers 403 to callers below maintainer who see the project, 404 to those who do not', async () => {
    for (const caller of ['outsider', 'guest', 'reporter', 'developer', 'developerReadRepository'] as const)
      expect((await call(caller, hooksPath(publicProject))).status, caller).toBe(403);
    for (const caller of ['guest', 'reporter', 'developer'] as const)
      expect((await call(caller, hooksPath(privateProject))).status, caller).toBe(403);
    expect((await call('outsider', hooksPath(privateProject))).status).toBe(404);
    expect((await call('admin', hooksPath(`no-such-group-${RUN}/nothing`))).status).toBe(404);
  });
});

describe('GET /projects/:id/hooks/:hook_id', () => {
  it('reads a hook as the list shows it', async () => {
    for (const caller of MAY_READ) {
      const { status, body } = await call(caller, hooksPath(publicProject, `/${publicHook.id}`));
      expect(status, caller).toBe(200);
      expect(body).toEqual(publicHook);
    }
    const hidden = await call('maintainer', hooksPath(privateProject, `/${privateHook.id}`));
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual(privateHook);
  });

  it('answers 404 for a hook of another project and for unknown IDs', async () => {
    expect((await call('maintainer', hooksPath(publicProject, `/${privateHook.id}`))).status).toBe(404);
    expect((await call('admin', hooksPath(privateProject, `/${publicHook.id}`))).status).toBe(404);
    for (const id of ['999999999', '0'])
      expect((await call('admin', hooksPath(publicProject, `/${id}`))).status, id).toBe(404);
  });

  it('answers 400 for a hook ID that is no integer', async () => {
    for (const id of ['abc', '1.5', '1e30'])
      expect((await call('maintainer', hooksPath(publicProject, `/${id}`))).status, id).toBe(400);
  });

  it('answers 401, 403 and 404 as the list does', async () => {
    const path = hooksPath(publicProject, `/${publicHook.id}`);
    for (const caller of ['anonymous', 'invalid', 'revoked'] as const)
      expect((await call(caller, path)).status, caller).toBe(401);
    for (const caller of ['outsider', 'guest', 'reporter', 'developer'] as const)
      expect((await call(caller, path)).status, caller).toBe(403);
    expect((await call('outsider', hooksPath(privateProject, `/${privateHook.id}`))).status).toBe(404);
  });
});

describe('deliveries (a fresh local server whose hooks point at a local receiver)', () => {
  let receiver: Receiver;
  let local: Target;
  const TOKEN = `hook-secret-${RUN}`;

  beforeAll(async () => {
    receiver = await startReceiver(() => 200);
    const base = new URL(receiver.url).origin;
    const server = await startLocalServer({
      fixtures: (demo) => ({
        ...demo,
        projects: demo.projects.map((project) =>
          project.path === 'website'
            ? {
                ...project,
                hooks: [
                  {
                    url: `${base}/all`,
                    token: TOKEN,
                    push_events: true,
                    pipeline_events: true,
                    merge_requests_events: true,
                  },
                  { url: `${base}/release`, push_events: true, push_events_branch_filter: 'release/*' },
                ],
              }
            : project,
        ),
      }),
    });
    local = targetFor(demoConfig(server.baseUrl), server);
  });
  afterAll(async () => {
    await local?.close();
    await receiver?.close();
  });

  const bodies = (path: string, event: string) =>
    receiver.received
      .filter((r) => r.url === path && r.headers['x-service-event'] === event)
      .map((r) => JSON.parse(r.body.toString('utf8')) as Record<string, unknown>);

  it('sends a push event for a commit through the API, and only to hooks whose branch filter matches', async () => {
    const project = local.config.fixtures.publicProject;
    const maintainer = local.as('maintainer');
    const before = await maintainer.GET('/projects/{id}/repository/branches/{branch}', {
      params: { path: { id: project, branch: 'main' } },
    });
    const commit = await maintainer.POST('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id: project, file_path: `hooks-${RUN}.txt` } },
      body: { branch: 'main', content: 'hello hooks\n', commit_message: `Hook test ${RUN}` },
    });
    expect(commit.response.status).toBe(201);
    const after = await maintainer.GET('/projects/{id}/repository/branches/{branch}', {
      params: { path: { id: project, branch: 'main' } },
    });
    const [push] = await waitFor(
      'the push event',
      async () => bodies('/all', 'Push Hook'),
      (list) => list.length > 0,
    );
    const delivery = receiver.received.find((r) => r.url === '/all');
    expect(delivery?.method).toBe('POST');
    expect(delivery?.contentType).toBe('application/json');
    expect(delivery?.headers['x-service-token']).toBe(TOKEN);
    expect(push).toMatchObject({
      object_kind: 'push',
      event_name: 'push',
      ref: 'refs/heads/main',
      before: before.data?.commit.id,
      after: after.data?.commit.id,
      checkout_sha: after.data?.commit.id,
      user_username: 'maintainer',
      user_name: local.config.fixtures.users.maintainer.name,
      total_commits_count: 1,
      project: { path_with_namespace: project, default_branch: 'main' },
      repository: { name: 'Website' },
      commits: [{ id: after.data?.commit.id, title: `Hook test ${RUN}`, message: `Hook test ${RUN}` }],
    });

    // The release/* hook got nothing for main; a new release branch reaches it (and the other hook).
    const branch = await maintainer.POST('/projects/{id}/repository/branches', {
      params: { path: { id: project } },
      body: { branch: `release/${RUN}`, ref: 'main' },
    });
    expect(branch.response.status).toBe(201);
    const [release] = await waitFor(
      'the release branch push event',
      async () => bodies('/release', 'Push Hook'),
      (list) => list.length > 0,
    );
    expect(release).toMatchObject({
      ref: `refs/heads/release/${RUN}`,
      before: '0'.repeat(40),
      after: after.data?.commit.id,
      commits: [],
      total_commits_count: 0,
    });
    expect(receiver.received.find((r) => r.url === '/release')?.headers['x-service-token']).toBeUndefined();
    expect(bodies('/release', 'Push Hook').map((b) => b.ref)).toEqual([`refs/heads/release/${RUN}`]);
  });

  it('sends pipeline events as the pipeline moves, ending with its final status, numbered by its iid', async () => {
    const project = local.config.fixtures.publicProject;
    // A pipeline of another project first, so that this one's ID and its number in the project differ.
    const other = local.config.fixtures.privateProject;
    const config = await local.as('admin').POST('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id: other, file_path: '.collab-ci.yml' } },
      body: { branch: 'main', content: 'only:\n  script: [true]\n', commit_message: `CI ${RUN}` },
    });
    expect(config.response.status).toBe(201);
    const elsewhere = await local.as('admin').POST('/projects/{id}/pipeline', {
      params: { path: { id: other } },
      body: { ref: 'main' },
    });
    expect(elsewhere.response.status).toBe(201);
    const created = await local.as('developer').POST('/projects/{id}/pipeline', {
      params: { path: { id: project } },
      body: { ref: 'main' },
    });
    expect(created.response.status).toBe(201);
    const id = created.data?.id;
    expect(created.data?.iid).not.toBe(id);
    const events = await waitFor(
      'the pipeline events',
      async () =>
        bodies('/all', 'Pipeline Hook').filter((b) => (b.object_attributes as { id: number }).id === id),
      (list) => list.some((b) => (b.object_attributes as { status: string }).status === 'success'),
    );
    const statuses = events.map((b) => (b.object_attributes as { status: string }).status);
    expect(statuses[0]).toBe('pending');
    expect(statuses).toContain('running');
    const last = events.find((b) => (b.object_attributes as { status: string }).status === 'success');
    // GitLab's Gitlab::DataBuilder::Pipeline: the pipeline's number in its project (`iid`) and its queue time
    // as the pipelines API shows them.
    const shown = await local.as('developer').GET('/projects/{id}/pipelines/{pipeline_id}', {
      params: { path: { id: project, pipeline_id: id ?? 0 } },
    });
    expect(shown.response.status).toBe(200);
    expect(last).toMatchObject({
      object_kind: 'pipeline',
      object_attributes: {
        id,
        iid: created.data?.iid,
        queued_duration: shown.data?.queued_duration,
        ref: 'main',
        sha: created.data?.sha,
        status: 'success',
        detailed_status: 'passed',
        stages: ['build', 'test'],
        source: 'api',
      },
      user: { username: 'developer' },
      project: { path_with_namespace: project },
      commit: { id: created.data?.sha },
    });
    const builds = (last?.builds ?? []) as { name: string; stage: string; status: string }[];
    expect(builds.map((b) => [b.name, b.stage, b.status])).toEqual([
      ['build', 'build', 'success'],
      ['test', 'test', 'success'],
    ]);
    // The release/* hook has no pipeline events.
    expect(bodies('/release', 'Pipeline Hook')).toEqual([]);
  });

  it('sends merge request events as a merge request opens and merges, and the push of the merge', async () => {
    const project = local.config.fixtures.publicProject;
    const maintainer = local.as('maintainer');
    const source = `hooked-${RUN}`;
    const branch = await maintainer.POST('/projects/{id}/repository/branches', {
      params: { path: { id: project } },
      body: { branch: source, ref: 'main' },
    });
    expect(branch.response.status).toBe(201);
    const commit = await maintainer.POST('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id: project, file_path: `merge-hook-${RUN}.txt` } },
      body: { branch: source, content: 'merged by a hook test\n', commit_message: `Merge hook ${RUN}` },
    });
    expect(commit.response.status).toBe(201);
    const created = await maintainer.POST('/projects/{id}/merge_requests', {
      params: { path: { id: project } },
      body: { source_branch: source, target_branch: 'main', title: `Hooked ${RUN}`, labels: 'hooked' },
    });
    expect(created.response.status).toBe(201);
    const iid = created.data?.iid ?? 0;
    const merged = await maintainer.PUT('/projects/{id}/merge_requests/{merge_request_iid}/merge', {
      params: { path: { id: project, merge_request_iid: iid } },
      body: {},
    });
    expect(merged.response.status).toBe(200);
    const mergeCommit = merged.data?.merge_commit_sha;
    const events = await waitFor(
      'the merge request events',
      async () =>
        bodies('/all', 'Merge Request Hook').filter(
          (b) => (b.object_attributes as { iid: number }).iid === iid,
        ),
      (list) => list.length >= 2,
    );
    expect(events.map((b) => (b.object_attributes as { action: string }).action)).toEqual(['open', 'merge']);
    expect(events[1]).toMatchObject({
      object_kind: 'merge_request',
      event_type: 'merge_request',
      user: { username: 'maintainer' },
      project: { path_with_namespace: project },
      object_attributes: {
        iid,
        source_branch: source,
        target_branch: 'main',
        state: 'merged',
        merge_commit_sha: mergeCommit,
        last_commit: { title: `Merge hook ${RUN}` },
      },
      labels: [{ title: 'hooked' }],
      changes: { state_id: { previous: 1, current: 3 } },
    });
    const [push] = await waitFor(
      'the push event of the merge',
      async () => bodies('/all', 'Push Hook').filter((b) => b.after === mergeCommit),
      (list) => list.length > 0,
    );
    expect(push).toMatchObject({
      ref: 'refs/heads/main',
      user_username: 'maintainer',
      total_commits_count: 2,
    });
    // The release/* hook has no merge request events.
    expect(bodies('/release', 'Merge Request Hook')).toEqual([]);
  });
});
