// The server with several worker processes on one data directory, started as `pnpm start` starts it: every
// worker sees the others' writes at once, the jobs run (in one of them), and a signal stops them all.
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, callOnNewConnection, MAIN, startWorkerServer } from './workerServer.testSupport.js';

const TOKEN = 'collab-demo-maintainer-token';
const PROJECT = '/api/v4/projects/acme%2Fwebsite';

let dataDir: string;
let primary: ChildProcess;
let origin: string;

/** One request on a connection of its own, so that the primary hands it to the next worker in turn. */
function call(method: string, path: string, body?: unknown): Promise<Answer> {
  return callOnNewConnection(origin, method, path, body, TOKEN);
}

/** The worker processes of the primary (its other children are tsx's compiler service). */
async function workerPids(pid: number): Promise<number[]> {
  const { stdout } = await promisify(execFile)('ps', ['-o', 'pid=,args=', '--ppid', String(pid)]).catch(
    () => ({ stdout: '' }),
  );
  return stdout
    .split('\n')
    .filter((line) => line.includes(MAIN))
    .map((line) => Number.parseInt(line, 10));
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-workers-'));
  ({ primary, origin } = await startWorkerServer(dataDir, 2));
}, 180_000);

afterAll(async () => {
  if (primary.exitCode === null) primary.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe('several worker processes', () => {
  it('run as children of the primary', async () => {
    expect(await workerPids(primary.pid ?? 0)).toHaveLength(2);
  });

  it('all see a commit at once, though each had cached the files and branches before', async () => {
    const file = `${PROJECT}/repository/files/workers.txt/raw?ref=develop`;
    const before = await Promise.all(Array.from({ length: 8 }, () => call('GET', file)));
    expect(before.map((a) => a.status)).toEqual(Array(8).fill(404));
    const branchesBefore = await call('GET', `${PROJECT}/repository/branches/develop`);

    const created = await call('POST', `${PROJECT}/repository/files/workers.txt`, {
      branch: 'develop',
      content: 'written by one worker\n',
      commit_message: 'Add workers.txt',
    });
    expect(created.status).toBe(201);

    const after = await Promise.all(Array.from({ length: 8 }, () => call('GET', file)));
    expect(after.map((a) => [a.status, a.body])).toEqual(Array(8).fill([200, 'written by one worker\n']));
    const tips = await Promise.all(
      Array.from({ length: 8 }, () => call('GET', `${PROJECT}/repository/branches/develop`)),
    );
    const oldTip = (JSON.parse(branchesBefore.body) as { commit: { id: string } }).commit.id;
    for (const tip of tips) {
      const commit = (JSON.parse(tip.body) as { commit: { id: string; title: string } }).commit;
      expect(commit.id).not.toBe(oldTip);
      expect(commit.title).toBe('Add workers.txt');
    }
  });

  it('run a pipeline to its end: one worker runs the jobs that any worker queues', async () => {
    const created = await call('POST', `${PROJECT}/pipeline`, { ref: 'main' });
    expect(created.status).toBe(201);
    const { id } = JSON.parse(created.body) as { id: number };
    let status = '';
    for (let attempt = 0; attempt < 150 && status !== 'success'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (JSON.parse((await call('GET', `${PROJECT}/pipelines/${id}`)).body) as { status: string })
        .status;
    }
    expect(status).toBe('success');
  }, 40_000);

  it('all stop on SIGTERM to the primary', async () => {
    const workers = await workerPids(primary.pid ?? 0);
    const exited = new Promise<number | null>((resolve) => primary.once('exit', resolve));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    const alive = workers.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  }, 20_000);
});
