// Remote mirrors: list, create and update with masked credentials, and real pushes to local bare
// repositories after commits (only_protected_branches, keep_divergent_refs, failures).
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, openTarget, type Target } from '../src/index.js';

const execFileAsync = promisify(execFile);

let target: Target;
let project: string;
let privateProject: string;
const scratchDirs: string[] = [];

beforeAll(async () => {
  target = await openTarget();
  project = target.config.fixtures.publicProject;
  privateProject = target.config.fixtures.privateProject;
});
afterAll(async () => {
  await target.close();
  await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const LIST = '/projects/{id}/remote_mirrors' as const;
const ONE = '/projects/{id}/remote_mirrors/{mirror_id}' as const;
const FILE = '/projects/{id}/repository/files/{file_path}' as const;
const BRANCHES = '/projects/{id}/repository/branches' as const;

/* Helpers --------------------------------------------------------------------------------------- */

/** git, independent of the server, for preparing and reading the mirrors. */
async function git(args: string[], cwd?: string): Promise<string> {
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
  };
  const { stdout } = await execFileAsync('git', args, { cwd, env, encoding: 'utf8' });
  return stdout.trim();
}

/** A new directory in the temp folder, removed after the file's tests. */
async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  scratchDirs.push(dir);
  return dir;
}

/** A path for a clone of a mirror. */
async function workTree(): Promise<string> {
  return join(await scratchDir('collab-mirror-work-'), 'work');
}

/** A fresh empty bare repository and its file URL. */
async function bareRepository(): Promise<{ path: string; url: string }> {
  const path = join(await scratchDir('collab-mirror-'), 'mirror.git');
  await git(['init', '--bare', '--quiet', path]);
  return { path, url: pathToFileURL(path).href };
}

/** Branch name → SHA in a bare repository. */
async function remoteBranches(path: string): Promise<Record<string, string>> {
  const out = await git([
    `--git-dir=${path}`,
    'for-each-ref',
    '--format=%(refname:short) %(objectname)',
    'refs/heads/',
  ]);
  return Object.fromEntries(
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ') as [string, string]),
  );
}

/** Branch name → SHA of the project, and which branches are protected, through the API. */
async function projectBranches(): Promise<{ tips: Record<string, string>; protectedNames: string[] }> {
  const { data } = await target
    .as('maintainer')
    .GET(BRANCHES, { params: { path: { id: project }, query: { per_page: 100 } } });
  return {
    tips: Object.fromEntries((data ?? []).map((branch) => [branch.name, branch.commit.id])),
    protectedNames: (data ?? []).filter((branch) => branch.protected).map((branch) => branch.name),
  };
}

/** Every mirror of the public project, all pages: runs against one server add up to more than a page. */
async function allMirrors() {
  const client = target.as('maintainer');
  return collect(
    client.paginate(() => client.GET(LIST, { params: { path: { id: project }, query: { per_page: 100 } } })),
  );
}

async function mirrorById(id: number) {
  const mirror = (await allMirrors()).find((m) => m.id === id);
  if (!mirror) throw new Error(`mirror ${id} is not listed`);
  return mirror;
}

/** Polls until `done` holds (at most 50 × 100 ms), returning the last value read. */
async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean | Promise<boolean>,
): Promise<T> {
  let value = await read();
  for (let attempt = 0; attempt < 50 && !(await done(value)); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

async function createMirror(body: {
  url: string;
  enabled?: boolean;
  only_protected_branches?: boolean;
  keep_divergent_refs?: boolean;
}) {
  const { data, response } = await target
    .as('maintainer')
    .POST(LIST, { params: { path: { id: project } }, body });
  expect(response.status).toBe(201);
  if (!data) throw new Error('no mirror created');
  return data;
}

async function updateMirror(
  id: number,
  body: { enabled?: boolean; only_protected_branches?: boolean; keep_divergent_refs?: boolean },
) {
  const { data, response } = await target
    .as('maintainer')
    .PUT(ONE, { params: { path: { id: project, mirror_id: id } }, body });
  expect(response.status).toBe(200);
  return data;
}

let commitCount = 0;
/** Commits a new file to `branch` through the API and returns the branch's new tip. */
async function commitTo(branch: string): Promise<string> {
  commitCount += 1;
  const filePath = `mirror-test/${branch}-${commitCount}.txt`;
  const { response } = await target.as('maintainer').POST(FILE, {
    params: { path: { id: project, file_path: filePath } },
    body: { branch, content: `change ${commitCount}\n`, commit_message: `mirror test ${commitCount}` },
  });
  expect(response.status).toBe(201);
  return (await projectBranches()).tips[branch] ?? '';
}

/* Permissions and validation (any server) ------------------------------------------------------- */

describe('permissions', () => {
  it('needs a maintainer: 401 anonymous, 403 developer, 404 for a private project the caller cannot see', async () => {
    expect(
      (await target.as('anonymous').GET(LIST, { params: { path: { id: project } } })).response.status,
    ).toBe(401);
    expect(
      (await target.as('developer').GET(LIST, { params: { path: { id: project } } })).response.status,
    ).toBe(403);
    expect(
      (await target.as('outsider').GET(LIST, { params: { path: { id: privateProject } } })).response.status,
    ).toBe(404);
    expect(
      (await target.as('revoked').GET(LIST, { params: { path: { id: project } } })).response.status,
    ).toBe(401);
    const body = { url: 'https://example.com/forbidden.git' };
    expect(
      (await target.as('anonymous').POST(LIST, { params: { path: { id: project } }, body })).response.status,
    ).toBe(401);
    expect(
      (await target.as('developer').POST(LIST, { params: { path: { id: project } }, body })).response.status,
    ).toBe(403);
    expect(
      (await target.as('outsider').POST(LIST, { params: { path: { id: privateProject } }, body })).response
        .status,
    ).toBe(404);
    const mirror = await createMirror({ url: 'https://example.com/permissions.git' });
    const path = { id: project, mirror_id: mirror.id };
    expect(
      (await target.as('anonymous').PUT(ONE, { params: { path }, body: { enabled: false } })).response.status,
    ).toBe(401);
    expect(
      (await target.as('developer').PUT(ONE, { params: { path }, body: { enabled: false } })).response.status,
    ).toBe(403);
    // Nothing was written by the refused requests.
    expect((await allMirrors()).some((m) => m.url.includes('forbidden'))).toBe(false);
  });

  it('refuses a token without the api scope (403 insufficient_scope)', async () => {
    const { response, error } = await target
      .as('developerReadRepository')
      .GET(LIST, { params: { path: { id: project } } });
    expect(response.status).toBe(403);
    expect(error?.error).toBe('insufficient_scope');
  });

  it('gives 404 for an unknown project and an unknown mirror, and for a mirror of another project', async () => {
    expect(
      (
        await target
          .as('admin')
          .GET(LIST, { params: { path: { id: `${target.config.fixtures.namespace}/no-such-project` } } })
      ).response.status,
    ).toBe(404);
    const missing = await target
      .as('maintainer')
      .PUT(ONE, { params: { path: { id: project, mirror_id: 999_999 } }, body: { enabled: true } });
    expect(missing.response.status).toBe(404);
    const mirror = await createMirror({ url: 'https://example.com/other-project.git' });
    const elsewhere = await target.as('maintainer').PUT(ONE, {
      params: { path: { id: target.config.fixtures.internalProject, mirror_id: mirror.id } },
      body: { enabled: true },
    });
    expect(elsewhere.response.status).toBe(404);
    expect((await mirrorById(mirror.id)).enabled).toBe(false);
  });
});

describe('create, list and update', () => {
  it('creates a disabled mirror with update_status none and masks the credentials everywhere', async () => {
    const url = 'https://mirror-bot:s3cr3t-token@example.com/group/repo.git';
    const created = await createMirror({ url });
    expect(created).toMatchObject({
      enabled: false,
      url: 'https://*****:*****@example.com/group/repo.git',
      update_status: 'none',
      last_error: null,
      last_update_at: null,
      last_update_started_at: null,
      last_successful_update_at: null,
      only_protected_branches: false,
      keep_divergent_refs: false,
    });
    const list = await allMirrors();
    const listed = list.find((m) => m.id === created.id);
    expect(listed?.url).toBe('https://*****:*****@example.com/group/repo.git');
    const updated = await updateMirror(created.id, {
      only_protected_branches: true,
      keep_divergent_refs: true,
    });
    expect(updated).toMatchObject({
      id: created.id,
      enabled: false,
      only_protected_branches: true,
      keep_divergent_refs: true,
    });
    expect(updated?.url).toBe('https://*****:*****@example.com/group/repo.git');
    const everything = JSON.stringify([created, list, updated]);
    expect(everything).not.toContain('s3cr3t-token');
    expect(everything).not.toContain('mirror-bot');
  });

  it('accepts the flags as form fields too', async () => {
    const response = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/remote_mirrors`,
      {
        method: 'POST',
        headers: {
          'PRIVATE-TOKEN': target.config.tokens.maintainer,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          url: 'ssh://git@example.com/form.git',
          only_protected_branches: 'true',
        }).toString(),
      },
    );
    expect(response.status).toBe(201);
    const body = (await response.json()) as {
      url: string;
      only_protected_branches: boolean;
      enabled: boolean;
    };
    expect(body).toMatchObject({
      url: 'ssh://*****@example.com/form.git',
      only_protected_branches: true,
      enabled: false,
    });
  });

  it('paginates the list with the X-* and Link headers', async () => {
    // Three mirrors of its own, so there are at least three pages whatever ran before.
    for (let n = 0; n < 3; n += 1) await createMirror({ url: `https://example.com/page-${n}.git` });
    const { data, response } = await target
      .as('maintainer')
      .GET(LIST, { params: { path: { id: project }, query: { per_page: 1, page: 2 } } });
    expect(response.status).toBe(200);
    expect(data).toHaveLength(1);
    const total = Number(response.headers.get('X-Total'));
    expect(total).toBeGreaterThanOrEqual(3);
    expect(response.headers.get('X-Total-Pages')).toBe(String(total));
    expect(response.headers.get('X-Per-Page')).toBe('1');
    expect(response.headers.get('X-Page')).toBe('2');
    expect(response.headers.get('X-Prev-Page')).toBe('1');
    expect(response.headers.get('X-Next-Page')).toBe('3');
    expect(response.headers.get('Link')).toMatch(/rel="next".*rel="first".*rel="last"/);
  });

  it('answers a page past the end, however large, with an empty list and the headers', async () => {
    await createMirror({ url: 'https://example.com/past-the-end.git' });
    const client = target.as('maintainer');
    const first = await client.GET(LIST, { params: { path: { id: project }, query: { per_page: 1 } } });
    const total = Number(first.response.headers.get('X-Total'));
    expect(total).toBeGreaterThanOrEqual(1);
    const huge = await client.GET(LIST, {
      // The largest page the spec takes (2^53 - 1), as the digits a client sends.
      params: {
        path: { id: project },
        query: { per_page: 1, page: Number.MAX_SAFE_INTEGER },
      },
    });
    expect(huge.response.status).toBe(200);
    expect(huge.data).toEqual([]);
    expect(huge.response.headers.get('X-Total')).toBe(String(total));
    expect(huge.response.headers.get('X-Total-Pages')).toBe(String(total));
    expect(huge.response.headers.get('X-Next-Page')).toBe('');
  });

  it('refuses a missing or invalid url with 400 and creates nothing', async () => {
    const before = Number(
      (await target.as('maintainer').GET(LIST, { params: { path: { id: project } } })).response.headers.get(
        'X-Total',
      ),
    );
    for (const url of [
      'ftp://example.com/repo.git',
      'git@example.com:group/repo.git',
      'not a url',
      '-oProxyCommand=x',
      '',
    ]) {
      const { response, error } = await target
        .as('maintainer')
        .POST(LIST, { params: { path: { id: project } }, body: { url } });
      expect(response.status, url).toBe(400);
      expect(error).toBeTruthy();
    }
    const missing = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/remote_mirrors`,
      {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer, 'Content-Type': 'application/json' },
        body: JSON.stringify({ enabled: true }),
      },
    );
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: 'url is missing' });
    const badFlag = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/remote_mirrors`,
      {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com/flag.git', enabled: 'maybe' }),
      },
    );
    expect(badFlag.status).toBe(400);
    const after = Number(
      (await target.as('maintainer').GET(LIST, { params: { path: { id: project } } })).response.headers.get(
        'X-Total',
      ),
    );
    expect(after).toBe(before);
  });

  it('refuses a url with another scheme, naming the url (the spec pattern lists the allowed schemes)', async () => {
    const { error, response } = await target.as('maintainer').POST(LIST, {
      params: { path: { id: project } },
      body: { url: 'ftp://example.com/repo.git' },
    });
    expect(response.status).toBe(400);
    expect(error?.message).toEqual({ url: ['is invalid'] });
  });
});

/* Real pushes (this repository's server: the bare repositories are on this machine) -------------- */

describe('pushing to a mirror', () => {
  it('refuses a file URL into the server\u2019s own data directory', async (context) => {
    if (!target.dataDir) return context.skip();
    const url = pathToFileURL(join(target.dataDir, 'repositories', 'default', '2.git')).href;
    const { response, error } = await target
      .as('maintainer')
      .POST(LIST, { params: { path: { id: project } }, body: { url, enabled: true } });
    expect(response.status).toBe(400);
    expect(JSON.stringify(error)).toMatch(/data directory/);
  });

  it('pushes every branch once enabled at creation, and again after each commit', async (context) => {
    if (!target.dataDir) return context.skip();
    const remote = await bareRepository();
    const mirror = await createMirror({ url: remote.url, enabled: true });
    expect(mirror).toMatchObject({ enabled: true });
    const finished = await eventually(
      () => mirrorById(mirror.id),
      (m) => m.update_status === 'finished',
    );
    expect(finished).toMatchObject({ update_status: 'finished', last_error: null });
    expect(finished.last_update_started_at).not.toBeNull();
    expect(finished.last_update_at).not.toBeNull();
    expect(finished.last_successful_update_at).toBe(finished.last_update_at);
    expect(await remoteBranches(remote.path)).toEqual((await projectBranches()).tips);

    const tip = await commitTo('develop');
    const pushed = await eventually(
      () => remoteBranches(remote.path),
      (branches) => branches.develop === tip,
    );
    expect(pushed.develop).toBe(tip);
    const after = await eventually(
      () => mirrorById(mirror.id),
      (m) =>
        m.update_status === 'finished' && m.last_successful_update_at !== finished.last_successful_update_at,
    );
    expect(after.update_status).toBe('finished');
    expect(Date.parse(after.last_successful_update_at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(finished.last_successful_update_at ?? ''),
    );
    await updateMirror(mirror.id, { enabled: false });
  });

  it('leaves a disabled mirror alone, and pushes it once enabled through PUT', async (context) => {
    if (!target.dataDir) return context.skip();
    const disabledRemote = await bareRepository();
    const enabledRemote = await bareRepository();
    // Created first: had the commit queued a push for it, that push would run before the enabled one's.
    const disabled = await createMirror({ url: disabledRemote.url });
    const enabled = await createMirror({ url: enabledRemote.url, enabled: true });
    const tip = await commitTo('develop');
    const pushed = await eventually(
      () => remoteBranches(enabledRemote.path),
      (branches) => branches.develop === tip,
    );
    expect(pushed.develop).toBe(tip);
    await eventually(
      () => mirrorById(enabled.id),
      (m) => m.update_status === 'finished',
    );
    expect(await mirrorById(disabled.id)).toMatchObject({
      enabled: false,
      update_status: 'none',
      last_update_at: null,
    });
    expect(await remoteBranches(disabledRemote.path)).toEqual({});

    const turnedOn = await updateMirror(disabled.id, { enabled: true });
    expect(turnedOn?.enabled).toBe(true);
    const finished = await eventually(
      () => mirrorById(disabled.id),
      (m) => m.update_status === 'finished',
    );
    expect(finished.update_status).toBe('finished');
    expect(await remoteBranches(disabledRemote.path)).toEqual((await projectBranches()).tips);
    await updateMirror(disabled.id, { enabled: false });
    await updateMirror(enabled.id, { enabled: false });
  });

  it('pushes only the protected branches with only_protected_branches', async (context) => {
    if (!target.dataDir) return context.skip();
    const remote = await bareRepository();
    const mirror = await createMirror({ url: remote.url, enabled: true, only_protected_branches: true });
    await eventually(
      () => mirrorById(mirror.id),
      (m) => m.update_status === 'finished',
    );
    const { tips, protectedNames } = await projectBranches();
    expect(protectedNames.length).toBeGreaterThan(0);
    expect(protectedNames.length).toBeLessThan(Object.keys(tips).length);
    expect(await remoteBranches(remote.path)).toEqual(
      Object.fromEntries(protectedNames.map((name) => [name, tips[name]])),
    );

    // Turning the option off (the mirror stays enabled) brings the other branches over too.
    await updateMirror(mirror.id, { only_protected_branches: false });
    const all = await eventually(
      () => remoteBranches(remote.path),
      (branches) => Object.keys(branches).length === Object.keys(tips).length,
    );
    expect(all).toEqual((await projectBranches()).tips);
    await updateMirror(mirror.id, { enabled: false });
  });

  it('skips a diverged branch with keep_divergent_refs, and overwrites it without', async (context) => {
    if (!target.dataDir) return context.skip();
    const remote = await bareRepository();
    const mirror = await createMirror({ url: remote.url, enabled: true, keep_divergent_refs: true });
    await eventually(
      () => mirrorById(mirror.id),
      (m) => m.update_status === 'finished',
    );

    // Someone pushes to the mirror directly: its develop now has a commit the project does not have.
    const work = await workTree();
    await git(['clone', '--quiet', '--branch', 'develop', remote.path, work]);
    await git(
      [
        '-c',
        'user.name=Mirror User',
        '-c',
        'user.email=mirror@example.com',
        'commit',
        '--quiet',
        '--allow-empty',
        '-m',
        'only on the mirror',
      ],
      work,
    );
    await git(['push', '--quiet', 'origin', 'develop'], work);
    const divergedTip = (await remoteBranches(remote.path)).develop;

    const mainTip = await commitTo('main');
    const failed = await eventually(
      () => mirrorById(mirror.id),
      (m) => m.update_status === 'failed',
    );
    expect(failed.update_status).toBe('failed');
    expect(failed.last_error).toMatch(/diverged/);
    expect(failed.last_error).toContain('refs/heads/develop');
    const afterSkip = await remoteBranches(remote.path);
    expect(afterSkip.develop).toBe(divergedTip);
    expect(afterSkip.main).toBe(mainTip);

    await updateMirror(mirror.id, { keep_divergent_refs: false });
    const overwritten = await eventually(
      () => mirrorById(mirror.id),
      (m) => m.update_status === 'finished',
    );
    expect(overwritten).toMatchObject({ update_status: 'finished', last_error: null });
    expect(await remoteBranches(remote.path)).toEqual((await projectBranches()).tips);
    await updateMirror(mirror.id, { enabled: false });
  });

  it('deletes the mirror\u2019s branches the project does not have, unless keep_divergent_refs', async (context) => {
    if (!target.dataDir) return context.skip();
    const remote = await bareRepository();
    const mirror = await createMirror({ url: remote.url, enabled: true, keep_divergent_refs: true });
    const first = await eventually(
      () => mirrorById(mirror.id),
      (m) => m.update_status === 'finished',
    );

    // Someone pushes a branch of their own to the mirror.
    const work = await workTree();
    // Without a checkout: only the ref is pushed, and main may hold a path no file system takes (another
    // file's over-long file path, when it ran before on the same server).
    await git(['clone', '--quiet', '--no-checkout', '--branch', 'main', remote.path, work]);
    await git(['push', '--quiet', 'origin', 'main:refs/heads/only-on-mirror'], work);

    // keep_divergent_refs: the next update leaves it there.
    await commitTo('main');
    await eventually(
      () => mirrorById(mirror.id),
      (m) => m.update_status === 'finished' && m.last_update_at !== first.last_update_at,
    );
    expect(Object.keys(await remoteBranches(remote.path))).toContain('only-on-mirror');

    // Without it the mirror becomes the project's copy: the branch goes.
    await updateMirror(mirror.id, { keep_divergent_refs: false });
    const pruned = await eventually(
      () => remoteBranches(remote.path),
      (branches) => !('only-on-mirror' in branches),
    );
    expect(pruned).toEqual((await projectBranches()).tips);
    await updateMirror(mirror.id, { enabled: false });
  });

  it('records failed and last_error for a url that cannot be pushed to', async (context) => {
    if (!target.dataDir) return context.skip();
    const mirror = await createMirror({ url: 'file:///nonexistent/repo.git', enabled: true });
    const failed = await eventually(
      () => mirrorById(mirror.id),
      (m) => m.update_status === 'failed',
    );
    expect(failed.update_status).toBe('failed');
    expect(failed.last_error).toMatch(/nonexistent/);
    expect(failed.last_update_at).not.toBeNull();
    expect(failed.last_update_started_at).not.toBeNull();
    expect(failed.last_successful_update_at).toBeNull();
    await updateMirror(mirror.id, { enabled: false });
  });

  it('never shows the credentials of a failing url in last_error', async (context) => {
    if (!target.dataDir) return context.skip();
    // Nothing listens on port 1: the push fails at once, with the URL in git's message.
    const mirror = await createMirror({
      url: 'http://mirror-bot:s3cr3t-token@127.0.0.1:1/repo.git',
      enabled: true,
    });
    expect(mirror.url).toBe('http://*****:*****@127.0.0.1:1/repo.git');
    const failed = await eventually(
      () => mirrorById(mirror.id),
      (m) => m.update_status === 'failed',
    );
    expect(failed.update_status).toBe('failed');
    expect(failed.last_error).toBeTruthy();
    const listed = JSON.stringify(await allMirrors());
    expect(listed).not.toContain('s3cr3t-token');
    expect(listed).not.toContain('mirror-bot');
    await updateMirror(mirror.id, { enabled: false });
  });
});
