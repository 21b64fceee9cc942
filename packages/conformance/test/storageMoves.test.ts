// Project repository storage moves: administrator-only list and read, and moves made by the operator's
// move-storage command that a running (or restarted) server carries out.
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig, openTarget, startLocalServer, type Target, targetFor } from '../src/index.js';
import { commandEnvironment } from '../src/localServer.js';

let target: Target;

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target.close();
});

const LIST = '/project_repository_storage_moves' as const;
const ONE = '/project_repository_storage_moves/{id}' as const;
const FILE = '/projects/{id}/repository/files/{file_path}' as const;

/** apps/server, found through the workspace dependency on @collab/server. */
const SERVER_DIR = dirname(dirname(createRequire(import.meta.url).resolve('@collab/server')));

/** Runs the operator command `move-storage` (without --run: the server's job queue does the move). */
async function moveStorage(
  dataDir: string,
  project: string,
  to: string,
): Promise<{ code: number; output: string }> {
  const env = await commandEnvironment(dataDir);
  return new Promise((resolve) => {
    execFile(
      join(SERVER_DIR, 'node_modules', '.bin', 'tsx'),
      [
        join(SERVER_DIR, 'src', 'areas', 'storageMoves', 'moveStorageCommand.ts'),
        '--data-dir',
        dataDir,
        '--project',
        project,
        '--to',
        to,
      ],
      { cwd: SERVER_DIR, env },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** The move ID the command printed. */
function moveIdOf(output: string): number {
  const id = /Storage move (\d+) scheduled/.exec(output)?.[1];
  if (!id) throw new Error(`no move ID in: ${output}`);
  return Number(id);
}

/** Polls the move as an administrator until it reaches a final state (at most 100 × 100 ms). */
async function finalMove(t: Target, id: number) {
  const read = async () => (await t.as('admin').GET(ONE, { params: { path: { id } } })).data;
  let move = await read();
  for (
    let attempt = 0;
    attempt < 100 && !['finished', 'failed', 'cleanup_failed'].includes(move?.state ?? '');
    attempt++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    move = await read();
  }
  return move;
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('permissions', () => {
  it('is for administrators only: 401 without or with an invalid token, 403 for everyone else', async () => {
    expect((await target.as('anonymous').GET(LIST)).response.status).toBe(401);
    expect((await target.as('revoked').GET(LIST)).response.status).toBe(401);
    expect((await target.as('anonymous').GET(ONE, { params: { path: { id: 1 } } })).response.status).toBe(
      401,
    );
    for (const role of ['owner', 'maintainer', 'developer', 'outsider'] as const) {
      const { response, error } = await target.as(role).GET(LIST);
      expect(response.status, role).toBe(403);
      expect(error?.message).toMatch(/403/);
      expect((await target.as(role).GET(ONE, { params: { path: { id: 1 } } })).response.status, role).toBe(
        403,
      );
    }
  });

  it('gives 404 for an unknown move and 400 for an ID that is not an integer', async () => {
    const { response, error } = await target.as('admin').GET(ONE, { params: { path: { id: 987_654 } } });
    expect(response.status).toBe(404);
    expect(error?.message).toBe('404 Project repository storage move Not Found');
    const invalid = await target.fetch(
      `${target.config.baseUrl}/api/v4/project_repository_storage_moves/abc`,
      {
        headers: { 'PRIVATE-TOKEN': target.config.tokens.admin },
      },
    );
    expect(invalid.status).toBe(400);
  });

  it('lists for an administrator with the pagination headers', async () => {
    const { data, response } = await target.as('admin').GET(LIST);
    expect(response.status).toBe(200);
    expect(Array.isArray(data)).toBe(true);
    expect(response.headers.get('X-Total')).toBe(String(data?.length));
    expect(response.headers.get('X-Page')).toBe('1');
    expect(response.headers.get('X-Per-Page')).toBe('20');
    expect(response.headers.get('Link')).toMatch(/rel="first"/);
  });
});

describe('moves made by the operator command', () => {
  it('moves a repository between storages while the server runs; the project reads the same afterwards', async (context) => {
    const dataDir = target.dataDir;
    if (!dataDir) return context.skip();
    const project = target.config.fixtures.publicProject;
    const params = { path: { id: project, file_path: 'README.md' }, query: { ref: 'main' } };
    const before = await target.as('anonymous').GET(FILE, { params });
    expect(before.response.status).toBe(200);

    const scheduled = await moveStorage(dataDir, project, 'secondary');
    expect(scheduled.code, scheduled.output).toBe(0);
    const id = moveIdOf(scheduled.output);
    const move = await finalMove(target, id);
    expect(move).toMatchObject({
      id,
      state: 'finished',
      source_storage_name: 'default',
      destination_storage_name: 'secondary',
      project: { path_with_namespace: project },
    });
    expect(move?.project.name_with_namespace).toContain(' / ');

    const after = await target.as('anonymous').GET(FILE, { params });
    expect(after.response.status).toBe(200);
    expect(after.data).toMatchObject({
      content: before.data?.content,
      commit_id: before.data?.commit_id,
      blob_id: before.data?.blob_id,
    });
    // Commits keep working on the new storage.
    const commit = await target.as('maintainer').POST(FILE, {
      params: { path: { id: project, file_path: 'moved.txt' } },
      body: { branch: 'develop', content: 'after the move\n', commit_message: 'after the move' },
    });
    expect(commit.response.status).toBe(201);
    const projectId = move?.project.id ?? 0;
    expect(await exists(join(dataDir, 'repositories', 'secondary', `${projectId}.git`))).toBe(true);
    expect(await exists(join(dataDir, 'repositories', 'default', `${projectId}.git`))).toBe(false);
  });

  it('refuses a move to an unknown storage or to where the repository already is', async (context) => {
    const dataDir = target.dataDir;
    if (!dataDir) return context.skip();
    const total = async () => Number((await target.as('admin').GET(LIST)).response.headers.get('X-Total'));
    const before = await total();
    const unknown = await moveStorage(dataDir, target.config.fixtures.internalProject, 'tertiary');
    expect(unknown.code).toBe(1);
    expect(unknown.output).toMatch(/Unknown repository storage: tertiary/);
    const same = await moveStorage(dataDir, target.config.fixtures.internalProject, 'default');
    expect(same.code).toBe(1);
    expect(same.output).toMatch(/already on storage default/);
    expect(await total()).toBe(before);
  });

  it('lists moves newest first, one page at a time', async (context) => {
    const dataDir = target.dataDir;
    if (!dataDir) return context.skip();
    const scheduled = await moveStorage(dataDir, target.config.fixtures.privateProject, 'secondary');
    expect(scheduled.code, scheduled.output).toBe(0);
    const newest = moveIdOf(scheduled.output);
    expect((await finalMove(target, newest))?.state).toBe('finished');

    const first = await target.as('admin').GET(LIST, { params: { query: { per_page: 1 } } });
    expect(first.data?.map((m) => m.id)).toEqual([newest]);
    expect(first.data?.[0]?.project.path_with_namespace).toBe(target.config.fixtures.privateProject);
    const total = Number(first.response.headers.get('X-Total'));
    expect(total).toBeGreaterThanOrEqual(2);
    expect(first.response.headers.get('X-Total-Pages')).toBe(String(total));
    expect(first.response.headers.get('X-Next-Page')).toBe('2');
    expect(first.response.headers.get('X-Prev-Page')).toBe('');
    expect(first.response.headers.get('Link')).toMatch(/rel="next"/);
    const second = await target.as('admin').GET(LIST, { params: { query: { per_page: 1, page: 2 } } });
    expect(second.data?.[0]?.id).toBeLessThan(newest);
    expect(second.response.headers.get('X-Prev-Page')).toBe('1');
  });

  it('carries out a move scheduled while the server was down once it restarts on the same data directory', async (context) => {
    if (!target.dataDir) return context.skip();
    const first = await startLocalServer();
    const project = target.config.fixtures.internalProject;
    const params = { path: { id: project, file_path: 'README.md' }, query: { ref: 'main' } };
    const before = await targetFor(demoConfig(first.baseUrl), first).as('developer').GET(FILE, { params });
    expect(before.response.status).toBe(200);
    await first.close({ keepData: true });

    const scheduled = await moveStorage(first.dataDir, project, 'secondary');
    expect(scheduled.code, scheduled.output).toBe(0);
    const second = await startLocalServer({ dataDir: first.dataDir });
    const restarted = targetFor(demoConfig(second.baseUrl), second);
    try {
      const move = await finalMove(restarted, moveIdOf(scheduled.output));
      expect(move).toMatchObject({ state: 'finished', destination_storage_name: 'secondary' });
      const after = await restarted.as('developer').GET(FILE, { params });
      expect(after.response.status).toBe(200);
      expect(after.data?.content).toBe(before.data?.content);
    } finally {
      await restarted.close();
    }
  });
});
