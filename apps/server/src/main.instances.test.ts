// Two server instances (separate processes with their own ports, standing for machines) on one PostgreSQL
// database and one data directory (standing for shared storage): a write through one is read through the
// other at once, caches follow the other's writes, concurrent commits to one branch through both lose and
// refuse nothing, and killing one mid-writes loses nothing it acknowledged. Runs with
// COLLAB_TEST_DATABASE=postgres (the run's PostgreSQL: core/store/testPostgres.ts); skipped on SQLite.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testsWantPostgres } from './core/store/testPostgres.js';
import {
  type Answer,
  callOnNewConnection,
  type StartedServers,
  startServers,
} from './workerServer.testSupport.js';

const MAINTAINER = 'collab-demo-maintainer-token';
const PROJECT = '/api/v4/projects/acme%2Fwebsite';
const enc = encodeURIComponent;

let started: StartedServers | undefined;

function call(instance: number, method: string, path: string, body?: unknown): Promise<Answer> {
  const origin = started?.servers[instance]?.origin ?? '';
  return callOnNewConnection(origin, method, path, body, MAINTAINER);
}

describe.skipIf(!testsWantPostgres())('two instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    // Two instances of one worker each, started together on one database.
    started = await startServers('instances', 2, 1);
  }, 120_000);

  afterAll(async () => {
    await started?.stop();
  }, 30_000);

  it('reads through one what was written through the other at once, counts included', async () => {
    const list = async (instance: number) => {
      const answer = await call(instance, 'GET', `${PROJECT}/badges`);
      return (JSON.parse(answer.body) as { name: string }[]).map((badge) => badge.name);
    };
    // Read (and cached) on the second first.
    expect(await list(1)).toEqual([]);
    const added = await call(0, 'POST', `${PROJECT}/badges`, {
      name: 'instances',
      link_url: 'https://example.com/%{project_path}',
      image_url: 'https://example.com/badge.svg',
    });
    expect(added.status).toBe(201);
    expect(await list(1)).toEqual(['instances']);
    const id = (JSON.parse(added.body) as { id: number }).id;
    expect((await call(1, 'DELETE', `${PROJECT}/badges/${id}`)).status).toBe(204);
    expect(await list(0)).toEqual([]);
  }, 120_000);

  it('applies eight concurrent commits to one branch through both, each on the tip it finds', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(i % 2, 'POST', `${PROJECT}/repository/files/${enc(`instances/${i}.txt`)}`, {
          branch: 'develop',
          content: `writer ${i}\n`,
          commit_message: `Two instances: ${i}`,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    const titles = (await started?.gitLog('develop')) ?? [];
    for (let i = 0; i < 8; i++) expect(titles).toContain(`Two instances: ${i}`);
  }, 120_000);

  it('keeps every write the first acknowledged when it is killed mid-writes', async () => {
    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (name: string) => {
      for (let i = 0; !killed && i < 200; i++) {
        const file = `killed/${name}-${i}.txt`;
        const answer = await call(0, 'POST', `${PROJECT}/repository/files/${enc(file)}`, {
          branch: 'develop',
          content: `${file}\n`,
          commit_message: `Add ${file}`,
        }).catch(() => undefined);
        if (answer === undefined) return;
        // Before the kill nothing may fail; an answer may not be a 5xx at any time.
        expect(answer.status).toBeLessThan(500);
        if (answer.status === 201) acknowledged.push(file);
      }
    };
    const writers = ['a', 'b', 'c'].map(writer);
    // Killed once it has acknowledged a few, while the writers keep sending.
    await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThanOrEqual(3), { timeout: 90_000 });
    killed = true;
    started?.servers[0]?.primary.kill('SIGKILL');
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const file of acknowledged) {
      const raw = await call(1, 'GET', `${PROJECT}/repository/files/${enc(file)}/raw?ref=develop`);
      expect([raw.status, raw.body]).toEqual([200, `${file}\n`]);
    }
  }, 180_000);
});
