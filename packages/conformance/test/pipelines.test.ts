// Pipelines: creation from the repository's declarative CI configuration, the runner's state transitions,
// cancel, retry and delete, every list filter, variables, the test report behind its feature flag, and a
// restart in the middle of a pipeline.
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CollabClient, components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  againstSuiteServer,
  collect,
  demoConfig,
  openTarget,
  type Role,
  RUN,
  startLocalServer,
  type Target,
  targetFor,
} from '../src/index.js';
import { ownServer } from './ownServer.js';

type Pipeline = components['schemas']['Pipeline'];
type Status = Pipeline['status'];

let target: Target;
let project: string;
let privateProject: string;

beforeAll(async () => {
  target = await openTarget();
  project = target.config.fixtures.publicProject;
  privateProject = target.config.fixtures.privateProject;
});
afterAll(async () => {
  await target.close();
});

const LIST = '/projects/{id}/pipelines' as const;
const CREATE = '/projects/{id}/pipeline' as const;
const ONE = '/projects/{id}/pipelines/{pipeline_id}' as const;
const CI_FILE = '.collab-ci.yml';
const STOPPED: readonly Status[] = ['success', 'failed', 'canceled', 'skipped', 'manual'];
const ZERO_SHA = '0'.repeat(40);

let branchCounter = 0;

/**
 * A new branch of `id` from its default branch whose CI configuration is `config`, on the file's server or
 * `t`; returns its name.
 */
async function branchWithConfig(
  config: string,
  id = project,
  role: Role = 'maintainer',
  t: Target = target,
): Promise<string> {
  branchCounter += 1;
  const branch = `ci/case-${RUN}-${branchCounter}`;
  const client = t.as(role);
  const created = await client.POST('/projects/{id}/repository/branches', {
    params: { path: { id } },
    body: { branch, ref: 'main' },
  });
  expect(created.response.status).toBe(201);
  const params = { path: { id, file_path: CI_FILE } };
  const exists =
    (
      await client.GET('/projects/{id}/repository/files/{file_path}', {
        params: { ...params, query: { ref: branch } },
      })
    ).response.status === 200;
  const body = { branch, content: config, commit_message: `CI configuration for ${branch}` };
  const written = exists
    ? await client.PUT('/projects/{id}/repository/files/{file_path}', { params, body })
    : await client.POST('/projects/{id}/repository/files/{file_path}', { params, body });
  expect(written.response.ok).toBe(true);
  return branch;
}

async function createPipeline(
  ref: string,
  options: {
    id?: string;
    role?: Role;
    variables?: { key: string; value: string; variable_type?: 'env_var' | 'file' }[];
    /** Another server than the file's. */
    target?: Target;
  } = {},
): Promise<Pipeline> {
  const t = options.target ?? target;
  const { data, response, error } = await t.as(options.role ?? 'developer').POST(CREATE, {
    params: { path: { id: options.id ?? project } },
    body: { ref, variables: options.variables },
  });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data as Pipeline;
}

async function getPipeline(pipelineId: number, id = project): Promise<Pipeline> {
  const { data, response } = await target
    .as('developer')
    .GET(ONE, { params: { path: { id, pipeline_id: pipelineId } } });
  expect(response.status).toBe(200);
  return data as Pipeline;
}

/** Polls until the pipeline has one of `statuses` (the runner works on its own, in the background). */
async function waitFor(
  pipelineId: number,
  statuses: readonly Status[] = STOPPED,
  id = project,
  t: Target = target,
): Promise<Pipeline> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const { data } = await t.as('developer').GET(ONE, { params: { path: { id, pipeline_id: pipelineId } } });
    if (data && statuses.includes(data.status)) return data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`pipeline ${pipelineId} did not reach ${statuses.join('/')}`);
}

/** The status each caller gets for the same request. */
async function statusesFor(
  callers: readonly (Role | 'anonymous')[],
  request: (client: CollabClient) => Promise<{ response: Response }>,
): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  for (const caller of callers) statuses[caller] = (await request(target.as(caller))).response.status;
  return statuses;
}

/**
 * The IDs of every pipeline of the public project that `query` selects, in the order listed, all pages, on
 * the file's server or `t`.
 */
async function listAll(
  query: Record<string, string | number | boolean> = {},
  role: Role | 'anonymous' = 'developer',
  t: Target = target,
): Promise<{ ids: number[] }> {
  const client = t.as(role);
  // All pages: on a shared server earlier runs leave pipelines, more than one page of them in the end.
  const items = await collect(
    client.paginate(() =>
      client.GET(LIST, { params: { path: { id: project }, query: { per_page: 100, ...query } as never } }),
    ),
  );
  return { ids: items.map((item) => item.id) };
}

const TWO_STAGES = `
stages: [build, test]
compile:
  stage: build
  script: make
  duration: 2
  coverage: '80'
unit:
  stage: test
  script: [make test]
  duration: 3
  coverage: 91
`;

const LONG_RUNNING = `
stages: [build, test]
slow:
  stage: build
  script: sleep
  duration: 5000
after:
  stage: test
  script: echo done
`;

describe('POST /projects/:id/pipeline', () => {
  it('creates a pending pipeline for a branch with the full object, and the runner takes it to success', async () => {
    const branch = await branchWithConfig(TWO_STAGES);
    const head = await target
      .as('developer')
      .GET('/projects/{id}/repository/branches/{branch}', { params: { path: { id: project, branch } } });
    const created = await createPipeline(branch);
    expect(created).toMatchObject({
      status: 'pending',
      ref: branch,
      sha: head.data?.commit.id,
      before_sha: ZERO_SHA,
      tag: false,
      yaml_errors: null,
      started_at: null,
      finished_at: null,
      duration: null,
      coverage: null,
      user: {
        username: target.config.fixtures.users.developer.username,
        name: target.config.fixtures.users.developer.name,
        state: 'active',
      },
    });
    expect(created.web_url).toMatch(new RegExp(`/${project}/-/pipelines/${created.id}$`));
    // GitLab's fields its clients read: the project's own numbering, the status as GitLab shows it.
    expect(created.iid).toBeGreaterThanOrEqual(1);
    expect(created.project_id).toBeGreaterThan(0);
    expect(created.queued_duration).toBeNull();
    expect(created.detailed_status).toMatchObject({
      icon: 'status_pending',
      text: 'pending',
      group: 'pending',
      details_path: `/${project}/-/pipelines/${created.id}`,
    });
    const next = await createPipeline(branch);
    expect(next.iid).toBe(created.iid + 1);
    const listed = await target.as('developer').GET('/projects/{id}/pipelines', {
      params: { path: { id: project }, query: { ref: branch } },
    });
    expect(listed.data?.map((pipeline) => [pipeline.id, pipeline.iid])).toEqual([
      [next.id, next.iid],
      [created.id, created.iid],
    ]);

    const finished = await waitFor(created.id);
    expect(finished.status).toBe('success');
    expect(finished.started_at).not.toBeNull();
    expect(finished.finished_at).not.toBeNull();
    expect(Date.parse(finished.finished_at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(finished.started_at ?? ''),
    );
    // The declared durations (2 s, then 3 s) and the average of the declared coverages.
    expect(finished.duration).toBe(5);
    expect(finished.coverage).toBe('85.5');
    expect(finished.detailed_status).toMatchObject({
      icon: 'status_success',
      text: 'passed',
      label: 'passed',
    });
    expect(finished.created_at).toBe(created.created_at);
  });

  it('runs the default branch with the configuration committed there', async () => {
    const created = await createPipeline('main', { role: 'maintainer' });
    expect((await waitFor(created.id)).status).toBe('success');
  });

  it('answers 400 "Reference not found" for an unknown ref, a SHA and revision syntax', async () => {
    const head = await target.as('developer').GET('/projects/{id}/repository/branches/{branch}', {
      params: { path: { id: project, branch: 'main' } },
    });
    for (const ref of ['no-such-branch', head.data?.commit.id ?? 'x', 'main~1', 'main..develop']) {
      const { response, error } = await target
        .as('developer')
        .POST(CREATE, { params: { path: { id: project } }, body: { ref } });
      expect(response.status).toBe(400);
      expect(error).toEqual({ message: { base: ['Reference not found'] } });
    }
  });

  it('answers 400 "Missing CI config file" when the ref has no configuration', async () => {
    // A branch of its own without the file (on a shared server, another file may have added one to main).
    branchCounter += 1;
    const ref = `ci/none-${RUN}-${branchCounter}`;
    const maintainer = target.as('maintainer');
    const branched = await maintainer.POST('/projects/{id}/repository/branches', {
      params: { path: { id: privateProject } },
      body: { branch: ref, ref: 'main' },
    });
    expect(branched.response.status).toBe(201);
    const params = { path: { id: privateProject, file_path: CI_FILE } };
    const existing = await maintainer.GET('/projects/{id}/repository/files/{file_path}', {
      params: { ...params, query: { ref } },
    });
    if (existing.response.status === 200) {
      const removed = await maintainer.DELETE('/projects/{id}/repository/files/{file_path}', {
        params,
        body: { branch: ref, commit_message: 'no CI' },
      });
      expect(removed.response.status).toBe(204);
    } else expect(existing.response.status).toBe(404);
    const { response, error } = await target
      .as('developer')
      .POST(CREATE, { params: { path: { id: privateProject } }, body: { ref } });
    expect(response.status).toBe(400);
    expect(error).toEqual({ message: { base: ['Missing CI config file'] } });
  });

  it('answers 400 for a missing ref and for malformed variables', async () => {
    const missing = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/pipeline`,
      {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': target.config.tokens.developer, 'Content-Type': 'application/json' },
        body: JSON.stringify({ variables: [] }),
      },
    );
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: expect.stringMatching(/ref/) });
    // A key the spec's pattern refuses is named as a parameter; a key given twice is the pipeline's error.
    const invalidKey = await target.as('developer').POST(CREATE, {
      params: { path: { id: project } },
      body: { ref: 'main', variables: [{ key: 'NOT VALID', value: 'x' }] },
    });
    expect(invalidKey.response.status).toBe(400);
    expect(invalidKey.error?.error).toMatch(/^variables\[0\]\[key\] is invalid/);
    const twice = await target.as('developer').POST(CREATE, {
      params: { path: { id: project } },
      body: {
        ref: 'main',
        variables: [
          { key: 'TWICE', value: '1' },
          { key: 'TWICE', value: '2' },
        ],
      },
    });
    expect(twice.response.status).toBe(400);
    expect(twice.error?.message).toEqual({ base: [expect.any(String)] });
    const wrongType = await target.as('developer').POST(CREATE, {
      params: { path: { id: project } },
      body: { ref: 'main', variables: [{ key: 'A', value: '1', variable_type: 'secret' as 'file' }] },
    });
    expect(wrongType.response.status).toBe(400);
  });

  it('needs a token (401), developer access (403), and hides private projects (404)', async () => {
    const create = (id: string) => (client: CollabClient) =>
      client.POST(CREATE, { params: { path: { id } }, body: { ref: 'main' } });
    const callers = ['anonymous', 'revoked', 'reporter', 'guest', 'developerReadRepository'] as const;
    expect(await statusesFor(callers, create(project))).toEqual({
      anonymous: 401,
      revoked: 401,
      reporter: 403,
      guest: 403,
      developerReadRepository: 403,
    });
    expect(await statusesFor(['outsider'], create(privateProject))).toEqual({ outsider: 404 });
    expect(
      await statusesFor(['developer'], create(`${target.config.fixtures.namespace}/no-such-project`)),
    ).toEqual({ developer: 404 });
  });

  it('takes its parameters as form fields too', async () => {
    const response = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/pipeline`,
      {
        method: 'POST',
        headers: {
          'PRIVATE-TOKEN': target.config.tokens.developer,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'ref=main&variables[0][key]=FROM_FORM&variables[0][value]=yes&variables[0][variable_type]=file',
      },
    );
    expect(response.status).toBe(201);
    const created = (await response.json()) as Pipeline;
    const variables = await target
      .as('developer')
      .GET(`${ONE}/variables`, { params: { path: { id: project, pipeline_id: created.id } } });
    expect(variables.data).toEqual([{ key: 'FROM_FORM', value: 'yes', variable_type: 'file' }]);
  });
});

describe('the CI configuration decides the outcome', () => {
  it('gives a failed pipeline with yaml_errors for invalid YAML, and for an invalid structure', async () => {
    for (const config of [
      'build: [unclosed',
      'stages: [build]\ncompile:\n  stage: nowhere\n  script: make\nlint:\n  stage: build\n',
    ]) {
      const created = await createPipeline(await branchWithConfig(config));
      expect(created.status).toBe('failed');
      expect(created.yaml_errors).toEqual(expect.any(String));
      expect(created.yaml_errors?.length).toBeGreaterThan(0);
      expect(created.finished_at).not.toBeNull();
    }
  });

  it('fails on a failed job without allow_failure, and succeeds past one with it', async () => {
    const failing = await createPipeline(
      await branchWithConfig(
        'stages: [test, deploy]\nbroken:\n  stage: test\n  script: x\n  outcome: failed\nship:\n  stage: deploy\n  script: y\n',
      ),
    );
    expect((await waitFor(failing.id)).status).toBe('failed');
    const tolerated = await createPipeline(
      await branchWithConfig(
        'stages: [test, deploy]\nflaky:\n  stage: test\n  script: x\n  outcome: failed\n  allow_failure: true\nship:\n  stage: deploy\n  script: y\n',
      ),
    );
    expect((await waitFor(tolerated.id)).status).toBe('success');
  });

  it('stops in manual at a manual job', async () => {
    const created = await createPipeline(
      await branchWithConfig(
        'stages: [build, deploy]\nb:\n  stage: build\n  script: x\ngo:\n  stage: deploy\n  script: y\n  outcome: manual\n',
      ),
    );
    const blocked = await waitFor(created.id);
    expect(blocked.status).toBe('manual');
    expect(blocked.finished_at).toBeNull();
  });

  it('is skipped when every job is skipped, and then has nothing to retry', async () => {
    const created = await createPipeline(await branchWithConfig('lint:\n  script: x\n  outcome: skipped\n'));
    const skipped = await waitFor(created.id);
    expect(skipped.status).toBe('skipped');
    expect(skipped.duration).toBeNull();
    const retry = await target
      .as('developer')
      .POST(`${ONE}/retry`, { params: { path: { id: project, pipeline_id: created.id } } });
    expect(retry.response.status).toBe(201);
    expect(retry.data).toEqual(skipped);
  });
});

describe('cancel, retry and delete', () => {
  it('cancels a running pipeline (200, canceled), and then leaves it as it is', async () => {
    const created = await createPipeline(await branchWithConfig(LONG_RUNNING));
    await waitFor(created.id, ['running']);
    const cancel = `${ONE}/cancel` as const;
    const params = { path: { id: project, pipeline_id: created.id } };
    const { data, response } = await target.as('developer').POST(cancel, { params });
    expect(response.status).toBe(200);
    expect(data?.status).toBe('canceled');
    expect(data?.finished_at).not.toBeNull();
    const again = await target.as('developer').POST(cancel, { params });
    expect(again.response.status).toBe(200);
    expect(again.data).toEqual(data);
    expect((await getPipeline(created.id)).status).toBe('canceled');
  });

  it('answers 200 with the pipeline unchanged when it cannot be canceled', async () => {
    const done = await waitFor((await createPipeline('main')).id);
    const { data, response } = await target
      .as('developer')
      .POST(`${ONE}/cancel`, { params: { path: { id: project, pipeline_id: done.id } } });
    expect(response.status).toBe(200);
    expect(data).toEqual(done);
  });

  it('retries a failed pipeline: 201, pending, and the retried jobs run to the same end', async () => {
    const created = await createPipeline(await branchWithConfig('broken:\n  script: x\n  outcome: failed\n'));
    const failed = await waitFor(created.id);
    expect(failed.status).toBe('failed');
    const { data, response } = await target
      .as('developer')
      .POST(`${ONE}/retry`, { params: { path: { id: project, pipeline_id: created.id } } });
    expect(response.status).toBe(201);
    expect(data?.status).toBe('pending');
    expect(data?.finished_at).toBeNull();
    expect(data?.started_at).toBe(failed.started_at);
    expect((await waitFor(created.id)).status).toBe('failed');
  });

  it('retries a canceled pipeline', async () => {
    const created = await createPipeline(await branchWithConfig('quick:\n  script: x\n  duration: 3000\n'));
    await waitFor(created.id, ['running']);
    await target
      .as('developer')
      .POST(`${ONE}/cancel`, { params: { path: { id: project, pipeline_id: created.id } } });
    const retried = await target
      .as('maintainer')
      .POST(`${ONE}/retry`, { params: { path: { id: project, pipeline_id: created.id } } });
    expect(retried.data?.status).toBe('pending');
    await waitFor(created.id, ['running']);
    await target
      .as('developer')
      .POST(`${ONE}/cancel`, { params: { path: { id: project, pipeline_id: created.id } } });
  });

  it('answers 201 with the pipeline unchanged when there is nothing to retry', async () => {
    const done = await waitFor((await createPipeline('main')).id);
    expect(done.status).toBe('success');
    const { data, response } = await target
      .as('developer')
      .POST(`${ONE}/retry`, { params: { path: { id: project, pipeline_id: done.id } } });
    expect(response.status).toBe(201);
    expect(data).toEqual(done);
  });

  it('needs developer access to cancel and retry (401, 403, 404)', async () => {
    const pipeline = await createPipeline('main');
    for (const action of ['cancel', 'retry'] as const) {
      const path = `${ONE}/${action}` as const;
      const post = (pipelineId: number) => (client: CollabClient) =>
        client.POST(path, { params: { path: { id: project, pipeline_id: pipelineId } } });
      const callers = ['anonymous', 'reporter', 'developerReadRepository'] as const;
      expect(await statusesFor(callers, post(pipeline.id))).toEqual({
        anonymous: 401,
        reporter: 403,
        developerReadRepository: 403,
      });
      expect(await statusesFor(['developer'], post(999999))).toEqual({ developer: 404 });
    }
  });

  it('deletes a pipeline as owner (204), then it is gone (404); maintainers may not (403)', async () => {
    const pipeline = await createPipeline('main');
    const params = { path: { id: project, pipeline_id: pipeline.id } };
    expect((await target.as('anonymous').DELETE(ONE, { params })).response.status).toBe(401);
    expect((await target.as('developer').DELETE(ONE, { params })).response.status).toBe(403);
    expect((await target.as('maintainer').DELETE(ONE, { params })).response.status).toBe(403);
    const deleted = await target.as('owner').DELETE(ONE, { params });
    expect(deleted.response.status).toBe(204);
    expect(await deleted.response.text()).toBe('');
    expect((await target.as('developer').GET(ONE, { params })).response.status).toBe(404);
    expect((await target.as('owner').DELETE(ONE, { params })).response.status).toBe(404);
    expect((await listAll()).ids).not.toContain(pipeline.id);
  });
});

describe('GET /projects/:id/pipelines/:pipeline_id and its variables', () => {
  it('reads a public project anonymously, a private one as reporter; guests 403, outsiders 404', async () => {
    const publicPipeline = await createPipeline('main');
    const anonymous = await target
      .as('anonymous')
      .GET(ONE, { params: { path: { id: project, pipeline_id: publicPipeline.id } } });
    expect(anonymous.response.status).toBe(200);
    expect(anonymous.data?.id).toBe(publicPipeline.id);

    const branch = await branchWithConfig('lint:\n  script: x\n', privateProject);
    const privatePipeline = await createPipeline(branch, { id: privateProject });
    const get = (id: string, pipelineId: number) => (client: CollabClient) =>
      client.GET(ONE, { params: { path: { id, pipeline_id: pipelineId } } });
    const callers = ['reporter', 'guest', 'outsider', 'anonymous', 'revoked'] as const;
    expect(await statusesFor(callers, get(privateProject, privatePipeline.id))).toEqual({
      reporter: 200,
      guest: 403,
      outsider: 404,
      anonymous: 404,
      revoked: 401,
    });
    // A pipeline is found only under its own project.
    expect(await statusesFor(['admin'], get(project, privatePipeline.id))).toEqual({ admin: 404 });
    expect(await statusesFor(['admin'], get(project, 999999))).toEqual({ admin: 404 });
  });

  it('rejects a pipeline id that is not an integer (400)', async () => {
    const response = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/pipelines/abc`,
      {
        headers: { 'PRIVATE-TOKEN': target.config.tokens.developer },
      },
    );
    expect(response.status).toBe(400);
  });

  it('lists the variables to the triggering user and maintainers, paginated; others 403, anonymous 401', async () => {
    const variables = [
      { key: 'RUN_NIGHTLY', value: 'true' },
      { key: 'DEPLOY_CONFIG', value: 'region: eu', variable_type: 'file' as const },
    ];
    const pipeline = await createPipeline('main', { variables });
    const path = `${ONE}/variables` as const;
    const params = { path: { id: project, pipeline_id: pipeline.id } };
    const own = await target.as('developer').GET(path, { params });
    expect(own.response.status).toBe(200);
    expect(own.data).toEqual([
      { key: 'RUN_NIGHTLY', value: 'true', variable_type: 'env_var' },
      { key: 'DEPLOY_CONFIG', value: 'region: eu', variable_type: 'file' },
    ]);
    expect(own.response.headers.get('X-Total')).toBe('2');
    const page = await target
      .as('maintainer')
      .GET(path, { params: { ...params, query: { per_page: 1, page: 2 } } });
    expect(page.data?.map((variable) => variable.key)).toEqual(['DEPLOY_CONFIG']);
    expect(page.response.headers.get('X-Total-Pages')).toBe('2');
    expect(page.response.headers.get('X-Prev-Page')).toBe('1');
    expect(page.response.headers.get('X-Next-Page')).toBe('');
    expect(page.response.headers.get('Link')).toContain('rel="prev"');
    const get = (pipelineId: number) => (client: CollabClient) =>
      client.GET(path, { params: { path: { id: project, pipeline_id: pipelineId } } });
    expect(await statusesFor(['reporter', 'outsider', 'anonymous'], get(pipeline.id))).toEqual({
      reporter: 403,
      outsider: 403,
      anonymous: 401,
    });
    expect(await statusesFor(['developer'], get(999999))).toEqual({ developer: 404 });
  });
});

describe('GET /projects/:id/pipelines', () => {
  let success: Pipeline;
  let failed: Pipeline;
  let yamlError: Pipeline;
  let running: Pipeline;
  let byMaintainer: Pipeline;
  let all: Pipeline[];

  beforeAll(async () => {
    success = await waitFor((await createPipeline(await branchWithConfig('ok:\n  script: x\n'))).id);
    failed = await waitFor(
      (await createPipeline(await branchWithConfig('ko:\n  script: x\n  outcome: failed\n'))).id,
    );
    yamlError = await createPipeline(await branchWithConfig('not: [valid'));
    running = await waitFor((await createPipeline(await branchWithConfig(LONG_RUNNING))).id, ['running']);
    byMaintainer = await waitFor((await createPipeline('main', { role: 'maintainer' })).id);
    all = await Promise.all((await listAll()).ids.map((id) => getPipeline(id)));
  });
  afterAll(async () => {
    await target
      .as('developer')
      .POST(`${ONE}/cancel`, { params: { path: { id: project, pipeline_id: running.id } } });
  });

  it('lists newest first with the list item fields, anonymously on a public project', async () => {
    const { data, response } = await target.as('anonymous').GET(LIST, { params: { path: { id: project } } });
    expect(response.status).toBe(200);
    const ids = (data ?? []).map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(data?.[0]).toEqual({
      id: expect.any(Number),
      iid: expect.any(Number),
      project_id: expect.any(Number),
      source: 'api',
      status: expect.any(String),
      ref: expect.any(String),
      sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      web_url: expect.stringContaining('/-/pipelines/'),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('filters by status and by the scopes running and finished', async () => {
    for (const status of ['success', 'failed', 'running', 'canceled', 'manual', 'pending'] as const) {
      const expected = all.filter((p) => p.status === status).map((p) => p.id);
      expect((await listAll({ status })).ids.sort()).toEqual(expected.sort());
    }
    expect((await listAll({ status: 'success' })).ids).toContain(success.id);
    expect((await listAll({ scope: 'running' })).ids).toEqual([running.id]);
    const finished = (await listAll({ scope: 'finished' })).ids;
    expect(finished).toEqual(expect.arrayContaining([success.id, failed.id, yamlError.id, byMaintainer.id]));
    expect(finished).not.toContain(running.id);
    expect((await listAll({ scope: 'running', status: 'success' })).ids).toEqual([]);
  });

  it('filters by ref, sha and yaml_errors', async () => {
    expect((await listAll({ ref: failed.ref })).ids).toEqual([failed.id]);
    expect((await listAll({ sha: success.sha })).ids).toEqual(
      all.filter((p) => p.sha === success.sha).map((p) => p.id),
    );
    expect((await listAll({ ref: 'no-such-ref' })).ids).toEqual([]);
    const withErrors = (await listAll({ yaml_errors: true })).ids;
    expect(withErrors).toContain(yamlError.id);
    expect(withErrors.every((id) => all.find((p) => p.id === id)?.yaml_errors !== null)).toBe(true);
    const withoutErrors = (await listAll({ yaml_errors: false })).ids;
    expect(withoutErrors).not.toContain(yamlError.id);
    expect(withoutErrors.length + withErrors.length).toBe(all.length);
  });

  it('filters by the name and the username of the user who triggered it', async () => {
    const { username, name } = target.config.fixtures.users.maintainer;
    const mine = all.filter((p) => p.user?.username === username).map((p) => p.id);
    expect(mine).toContain(byMaintainer.id);
    expect((await listAll({ username })).ids.sort()).toEqual([...mine].sort());
    expect((await listAll({ name })).ids.sort()).toEqual([...mine].sort());
    expect((await listAll({ username: 'nobody' })).ids).toEqual([]);
  });

  it('filters by updated_after and updated_before (exclusive bounds)', async () => {
    const bound = failed.updated_at;
    const after = (await listAll({ updated_after: bound })).ids;
    const before = (await listAll({ updated_before: bound })).ids;
    expect(after).not.toContain(failed.id);
    expect(before).not.toContain(failed.id);
    expect(after.every((id) => (all.find((p) => p.id === id)?.updated_at ?? '') > bound)).toBe(true);
    expect(before.every((id) => (all.find((p) => p.id === id)?.updated_at ?? '') < bound)).toBe(true);
    expect(before).toContain(success.id);
    expect(after).toContain(byMaintainer.id);
    const invalid = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/pipelines?updated_after=yesterday`,
    );
    expect(invalid.status).toBe(400);
  });

  it('keeps the latest pipeline of each branch with scope=branches', async () => {
    const latest = new Map<string, number>();
    for (const p of all.filter((item) => !item.tag))
      latest.set(p.ref, Math.max(latest.get(p.ref) ?? 0, p.id));
    expect((await listAll({ scope: 'branches' })).ids.sort()).toEqual([...latest.values()].sort());
  });

  it('orders by id, status, ref, updated_at and user_id, both ways', async () => {
    const byId = (await listAll({ order_by: 'id', sort: 'asc' })).ids;
    expect(byId).toEqual([...byId].sort((a, b) => a - b));
    for (const orderBy of ['status', 'ref', 'updated_at'] as const) {
      for (const sort of ['asc', 'desc'] as const) {
        const values = (await listAll({ order_by: orderBy, sort })).ids.map((id) =>
          String(all.find((p) => p.id === id)?.[orderBy]),
        );
        const sorted = [...values].sort();
        expect(values).toEqual(sort === 'asc' ? sorted : sorted.reverse());
      }
    }
    const users = (await listAll({ order_by: 'user_id', sort: 'asc' })).ids.map(
      (id) => all.find((p) => p.id === id)?.user?.id ?? 0,
    );
    expect(users).toEqual([...users].sort((a, b) => a - b));
    const invalid = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/pipelines?order_by=sha`,
    );
    expect(invalid.status).toBe(400);
  });

  it('paginates with the seven headers', async () => {
    const { data, response } = await target
      .as('developer')
      .GET(LIST, { params: { path: { id: project }, query: { per_page: 2, page: 2 } } });
    expect(data?.map((item) => item.id)).toEqual(all.slice(2, 4).map((p) => p.id));
    expect(response.headers.get('X-Total')).toBe(String(all.length));
    expect(response.headers.get('X-Total-Pages')).toBe(String(Math.ceil(all.length / 2)));
    expect(response.headers.get('X-Per-Page')).toBe('2');
    expect(response.headers.get('X-Page')).toBe('2');
    expect(response.headers.get('X-Prev-Page')).toBe('1');
    expect(response.headers.get('X-Next-Page')).toBe('3');
    expect(response.headers.get('Link')).toMatch(/rel="next".*rel="first".*rel="last"/);
    const tooMany = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/pipelines?per_page=101`,
    );
    // GitLab's maximum page size: more than 100 is read as 100.
    expect(tooMany.status).toBe(200);
    expect(tooMany.headers.get('X-Per-Page')).toBe('100');
  });

  it('rejects unknown filter values (400) and hides private projects (404, 403 for guests)', async () => {
    const scope = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/pipelines?scope=everything`,
    );
    expect(scope.status).toBe(400);
    const list = (id: string) => (client: CollabClient) => client.GET(LIST, { params: { path: { id } } });
    const callers = [
      'anonymous',
      'outsider',
      'guest',
      'reporter',
      'revoked',
      'developerReadRepository',
    ] as const;
    expect(await statusesFor(callers, list(privateProject))).toEqual({
      anonymous: 404,
      outsider: 404,
      guest: 403,
      reporter: 200,
      revoked: 401,
      // Pipelines are API data: a token limited to read_repository does not reach them.
      developerReadRepository: 403,
    });
    // An internal project: any signed-in user reads its pipelines, nobody anonymous.
    const internal = target.config.fixtures.internalProject;
    expect(await statusesFor(['anonymous', 'outsider'], list(internal))).toEqual({
      anonymous: 404,
      outsider: 200,
    });
  });
});

/**
 * Tags cannot be created through this API: git makes one in the repository of a server of the test's own
 * (started by the suite, so its data directory is on this machine). A shared server's data directory is
 * not read: other files move its repositories between storages and delete or import projects meanwhile.
 */
const againstLocalServer = againstSuiteServer();

describe('pipelines for tags', () => {
  it.skipIf(!againstLocalServer)(
    'creates a pipeline for a tag (tag true) and lists it with scope=tags only',
    async () => {
      const own = await ownServer();
      try {
        const branch = await branchWithConfig('ok:\n  script: x\n', project, 'maintainer', own);
        const tag = `v1.0.0-${branch}`;
        // The only repository of the demo data with that branch: the project's.
        const storage = join(own.dataDir ?? '', 'repositories', 'default');
        const repositories = (await readdir(storage)).map((name) => join(storage, name));
        const tagged: string[] = [];
        for (const repository of repositories) {
          const heads = await git(repository, 'for-each-ref', `refs/heads/${branch}`);
          if (heads.trim() === '') continue;
          await git(repository, 'tag', tag, `refs/heads/${branch}`);
          tagged.push(repository);
        }
        expect(tagged).toHaveLength(1);
        const pipeline = await createPipeline(tag, { target: own });
        expect(pipeline.tag).toBe(true);
        expect(pipeline.ref).toBe(tag);
        // The server's only tag pipeline, none of a branch.
        expect((await listAll({ scope: 'tags' }, 'developer', own)).ids).toEqual([pipeline.id]);
        const branchPipelines = (await listAll({ scope: 'branches' }, 'developer', own)).ids;
        expect(branchPipelines).not.toContain(pipeline.id);
        expect((await waitFor(pipeline.id, STOPPED, project, own)).status).toBe('success');
      } finally {
        await own.close();
      }
    },
  );
});

async function git(repository: string, ...args: string[]): Promise<string> {
  return (await promisify(execFile)('git', [`--git-dir=${repository}`, ...args])).stdout;
}

// In order: the flag is switched on for one project, then for everyone, then off.
describe('GET /projects/:id/pipelines/:pipeline_id/test_report', { shuffle: false }, () => {
  const REPORTING = `
stages: [test, report]
unit:
  stage: test
  script: npm test
  test_report:
    suites:
      - name: unit
        cases:
          - { name: adds, classname: math, execution_time: 0.5 }
          - { name: divides, classname: math, status: failed, execution_time: 1.25, system_output: expected 2, stack_trace: 'math.js:3' }
lint:
  stage: test
  script: npm run lint
  outcome: failed
  allow_failure: true
  test_report:
    suites:
      - name: lint
        cases:
          - { name: style, classname: eslint, status: skipped }
e2e:
  stage: report
  script: npm run e2e
  test_report:
    suites:
      - name: unit
        cases:
          - { name: boots, classname: app, status: error, execution_time: 2 }
`;
  const FEATURE = '/features/{name}' as const;
  const feature = { params: { path: { name: 'pipeline_test_report' } } };
  let pipeline: Pipeline;
  let privatePipeline: Pipeline;

  beforeAll(async () => {
    // Off, as by default, whatever another file on a shared server left behind.
    expect((await target.as('admin').DELETE(FEATURE, feature)).response.status).toBe(204);
    pipeline = await waitFor((await createPipeline(await branchWithConfig(REPORTING))).id);
    privatePipeline = await waitFor(
      (await createPipeline(await branchWithConfig(REPORTING, privateProject), { id: privateProject })).id,
      STOPPED,
      privateProject,
    );
  });
  afterAll(async () => {
    await target.as('admin').DELETE(FEATURE, feature);
  });

  const report = (id: string, pipelineId: number, role: Role | 'anonymous' = 'reporter') =>
    target.as(role).GET(`${ONE}/test_report`, { params: { path: { id, pipeline_id: pipelineId } } });

  it('is 404 while the feature flag is off (the default)', async () => {
    const { response, error } = await report(project, pipeline.id);
    expect(response.status).toBe(404);
    expect(error?.message).toMatch(/404/);
    expect((await report(privateProject, privatePipeline.id)).response.status).toBe(404);
  });

  it('is served for one project once the flag is on for it, with the counts computed', async () => {
    const enabled = await target.as('admin').POST(FEATURE, { ...feature, body: { value: true, project } });
    expect(enabled.data?.state, JSON.stringify(enabled.error)).toBe('conditional');
    const { data, response } = await report(project, pipeline.id, 'anonymous');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      total_time: 3.75,
      total_count: 4,
      success_count: 1,
      failed_count: 1,
      skipped_count: 1,
      error_count: 1,
    });
    expect(
      data?.test_suites.map((suite) => [suite.name, suite.total_count, suite.test_cases.map((c) => c.name)]),
    ).toEqual([
      ['unit', 3, ['adds', 'divides', 'boots']],
      ['lint', 1, ['style']],
    ]);
    expect(data?.test_suites[0]?.test_cases[1]).toEqual({
      status: 'failed',
      name: 'divides',
      classname: 'math',
      execution_time: 1.25,
      system_output: 'expected 2',
      stack_trace: 'math.js:3',
    });
    // Still off for the other project.
    expect((await report(privateProject, privatePipeline.id)).response.status).toBe(404);
  });

  it('gives zero totals for a pipeline without test reports', async () => {
    const plain = await waitFor((await createPipeline('main')).id);
    const { data } = await report(project, plain.id);
    expect(data).toEqual({
      total_time: 0,
      total_count: 0,
      success_count: 0,
      failed_count: 0,
      skipped_count: 0,
      error_count: 0,
      test_suites: [],
    });
  });

  it('is served everywhere once the flag is on for everyone, with the usual access rules', async () => {
    await target.as('admin').POST(FEATURE, { ...feature, body: { value: true } });
    expect((await report(privateProject, privatePipeline.id)).response.status).toBe(200);
    expect((await report(privateProject, privatePipeline.id, 'guest')).response.status).toBe(403);
    expect((await report(privateProject, privatePipeline.id, 'outsider')).response.status).toBe(404);
    expect((await report(privateProject, privatePipeline.id, 'anonymous')).response.status).toBe(404);
    expect((await report(privateProject, privatePipeline.id, 'revoked')).response.status).toBe(401);
    expect((await report(project, 999999)).response.status).toBe(404);
  });

  it('is 404 again once the flag is switched off', async () => {
    await target.as('admin').POST(FEATURE, { ...feature, body: { value: false } });
    expect((await report(project, pipeline.id)).response.status).toBe(404);
  });
});

describe('restart', () => {
  it.skipIf(!againstLocalServer)('finishes a pipeline that was running when the server stopped', async () => {
    const first = await startLocalServer();
    const before = targetFor(demoConfig(first.baseUrl), first);
    const id = before.config.fixtures.publicProject;
    const branch = 'ci/restart';
    await before.as('maintainer').POST('/projects/{id}/repository/branches', {
      params: { path: { id } },
      body: { branch, ref: 'main' },
    });
    await before.as('maintainer').PUT('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id, file_path: CI_FILE } },
      // Two stages of 0.6 s each on the local server's clock.
      body: {
        branch,
        content:
          'stages: [one, two]\na:\n  stage: one\n  script: x\n  duration: 60\nb:\n  stage: two\n  script: y\n  duration: 60\n',
        commit_message: 'slow CI',
      },
    });
    const created = await before
      .as('developer')
      .POST(CREATE, { params: { path: { id } }, body: { ref: branch } });
    const pipelineId = created.data?.id ?? 0;
    const running = await waitFor(pipelineId, ['running'], id, before);
    await first.close({ keepData: true });

    const second = await startLocalServer({ dataDir: first.dataDir });
    const after = targetFor(demoConfig(second.baseUrl), second);
    try {
      const finished = await waitFor(pipelineId, STOPPED, id, after);
      expect(finished.status).toBe('success');
      expect(finished.started_at).toBe(running.started_at);
      expect(finished.duration).toBe(120);
    } finally {
      await second.close();
    }
  });
});
