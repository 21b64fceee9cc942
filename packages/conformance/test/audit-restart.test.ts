// Audit of issue 4 point 7, "jobs survive a restart": the server runs as its own process and is killed
// (SIGKILL, no graceful stop, so a job may be left `running`) right after an import was accepted and a
// commit queued a mirror push; a new process on the same data directory must finish both. (Measured: at
// the kill the import is `started` with its job `running`, and the push is queued behind it.)
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { againstSuiteServer, demoConfig, type Target, targetFor } from '../src/index.js';
import { waitFor } from './waitFor.js';

/** apps/server, found through the workspace dependency on @collab/server. */
const SERVER_DIR = dirname(dirname(createRequire(import.meta.url).resolve('@collab/server')));
const againstLocalServer = againstSuiteServer();

interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
}

const children: ChildProcess[] = [];
const scratch: string[] = [];

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Starts `src/main.ts` in its own node process (not through the tsx CLI, so the kill reaches the server). */
async function startServerProcess(dataDir: string): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main.ts', '--port', '0', '--data-dir', dataDir, '--seed', 'demo'],
    { cwd: SERVER_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^/\s]+)\/api\/v4/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  return { baseUrl, child };
}

async function kill(server: ServerProcess): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

const git = async (args: string[]) =>
  (
    await promisify(execFile)('git', args, {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    })
  ).stdout.trim();

/** This test starts demo servers of its own: the demo fixtures. */
const DEMO = demoConfig('').fixtures;
const PROJECT = DEMO.publicProject;

async function branchTips(target: Target, id: string): Promise<string[][]> {
  const { data, response } = await target.as('maintainer').GET('/projects/{id}/repository/branches', {
    params: { path: { id }, query: { per_page: 100 } },
  });
  expect(response.status).toBe(200);
  return (data ?? []).map((branch) => [branch.name, branch.commit.id]).sort();
}

async function mirrorOf(target: Target, mirrorId: number) {
  const { data } = await target.as('maintainer').GET('/projects/{id}/remote_mirrors', {
    params: { path: { id: PROJECT }, query: { per_page: 100 } },
  });
  const mirror = data?.find((item) => item.id === mirrorId);
  if (!mirror) throw new Error(`no mirror ${mirrorId}`);
  return mirror;
}

describe('jobs across a crash of the server process', () => {
  it.skipIf(!againstLocalServer)(
    'finishes an accepted import and a queued mirror push after a SIGKILL and a restart on the same data directory',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'collab-audit-crash-'));
      const mirrorDir = await mkdtemp(join(tmpdir(), 'collab-audit-mirror-'));
      scratch.push(dataDir, mirrorDir);
      const mirrorPath = join(mirrorDir, 'mirror.git');
      await git(['init', '--bare', '--quiet', mirrorPath]);

      let server = await startServerProcess(dataDir);
      let target = targetFor(demoConfig(server.baseUrl));
      const maintainer = () => target.as('maintainer');

      // An archive of the project, and its branches at that moment.
      const exported = await maintainer().POST('/projects/{id}/export', {
        params: { path: { id: PROJECT } },
        body: {},
      });
      expect(exported.response.status).toBe(202);
      await waitFor(
        'the export',
        async () =>
          (await maintainer().GET('/projects/{id}/export', { params: { path: { id: PROJECT } } })).data
            ?.export_status,
        (state) => state === 'finished',
      );
      const archived = await branchTips(target, PROJECT);
      const download = await target.fetch(
        `${server.baseUrl}/api/v4/projects/${encodeURIComponent(PROJECT)}/export/download`,
        { headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer } },
      );
      expect(download.status).toBe(200);
      const archive = Buffer.from(await download.arrayBuffer());

      // An enabled mirror, brought up to date once.
      const mirror = await maintainer().POST('/projects/{id}/remote_mirrors', {
        params: { path: { id: PROJECT } },
        body: { url: pathToFileURL(mirrorPath).href, enabled: true },
      });
      expect(mirror.response.status).toBe(201);
      const mirrorId = mirror.data?.id ?? 0;
      const first = await waitFor(
        'the first push',
        () => mirrorOf(target, mirrorId),
        (m) => m.update_status === 'finished',
      );

      // The import is accepted, a commit queues a push, and the process dies at once.
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(archive)], { type: 'application/gzip' }), 'export.tar.gz');
      form.set('path', 'crash-copy');
      form.set('namespace', DEMO.namespace);
      const accepted = await target.fetch(`${server.baseUrl}/api/v4/projects/import`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer },
        body: form,
      });
      expect(accepted.status).toBe(201);
      const imported = (await accepted.json()) as { id: number; import_status: string };
      expect(imported.import_status).toBe('scheduled');
      const commit = await maintainer().POST('/projects/{id}/repository/files/{file_path}', {
        params: { path: { id: PROJECT, file_path: 'after-crash.txt' } },
        body: { branch: 'main', content: 'pushed after the restart', commit_message: 'crash' },
      });
      expect(commit.response.status).toBe(201);
      await kill(server);

      server = await startServerProcess(dataDir);
      target = targetFor(demoConfig(server.baseUrl));
      // The killed process's running job is taken up once its lease is over (30 s untouched, looked for every
      // 15 s: core/jobs/queue.ts), as on PostgreSQL, where another instance may still be running it.
      const status = await waitFor(
        'the import',
        async () =>
          (
            await maintainer().GET('/projects/{id}/import', {
              params: { path: { id: String(imported.id) } },
            })
          ).data,
        (s) => s?.import_status === 'finished' || s?.import_status === 'failed',
        90_000,
      );
      expect(status?.import_status).toBe('finished');
      expect(await branchTips(target, `${DEMO.namespace}/crash-copy`)).toEqual(archived);

      const tip = (await branchTips(target, PROJECT)).find(([name]) => name === 'main')?.[1];
      // The push was running in the killed process too: its lease ends on its own (its row was touched later
      // than the import's), up to a recovery look after the import's.
      const pushed = await waitFor(
        'the push of the commit',
        () => mirrorOf(target, mirrorId),
        (m) =>
          m.update_status === 'finished' &&
          (m.last_successful_update_at ?? '') > (first.last_successful_update_at ?? ''),
        90_000,
      );
      expect(pushed.last_error).toBeNull();
      expect(await git([`--git-dir=${mirrorPath}`, 'rev-parse', 'refs/heads/main'])).toBe(tip);
      await kill(server);
    },
    240_000,
  );
});
