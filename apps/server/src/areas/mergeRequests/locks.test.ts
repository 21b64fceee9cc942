// Merge locks left behind (locks.ts): a lock older than the timeout is released by a single read (merged when
// git merged it, else opened again); a younger one may be a merge another process is making, so a read
// leaves it and the sweep queued at start comes back for it when it would be stale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from '../../appServer.testSupport.js';
import type { Fixtures } from '../../core/store/fixturesFile.js';
import { MERGE_LOCK_TIMEOUT_MS } from './locks.js';

const FIXTURES: Fixtures = {
  users: [
    {
      username: 'olga',
      name: 'Olga',
      email: 'olga@example.com',
      tokens: [{ name: 'test', token: 'olga-token', scopes: ['api'] }],
    },
  ],
  groups: [
    { path: 'acme', name: 'Acme', visibility: 'public', members: [{ username: 'olga', access_level: 50 }] },
  ],
  projects: [
    {
      namespace: 'acme',
      path: 'web',
      name: 'web',
      visibility: 'public',
      creator: 'olga',
      repository: {
        files: { 'README.md': '# web\n' },
        branches: [
          { name: 'stale', files: { 'stale.txt': 'stale\n' } },
          { name: 'young', files: { 'young.txt': 'young\n' } },
        ],
      },
      merge_requests: [
        { title: 'Stale lock', author: 'olga', source_branch: 'stale' },
        { title: 'Young lock', author: 'olga', source_branch: 'young' },
      ],
    },
  ],
};

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer('merge-locks', { fixtures: FIXTURES });
  // The sweep a start queues has run (on no lock) before the test leaves locks behind.
  await server.app.context.jobs.idle();
});
afterAll(async () => {
  await server?.close();
});

async function read(iid: number): Promise<{ state: string }> {
  const response = await fetch(`${server.base}/projects/acme%2Fweb/merge_requests/${iid}`, {
    headers: { 'PRIVATE-TOKEN': 'olga-token' },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { state: string };
}

describe('a merge lock left behind', () => {
  it('is released by a read once stale; a younger one stays locked and the sweep is queued for it', async () => {
    const { db } = server.app.context;
    const now = Date.now();
    const lockedAt = (ago: number) => new Date(now - ago).toISOString();
    await db
      .updateTable('merge_requests')
      .set({ state: 'locked', merge_locked_at: lockedAt(MERGE_LOCK_TIMEOUT_MS + 60_000) })
      .where('iid', '=', 1)
      .execute();
    await db
      .updateTable('merge_requests')
      .set({ state: 'locked', merge_locked_at: lockedAt(60_000) })
      .where('iid', '=', 2)
      .execute();

    expect((await read(1)).state).toBe('opened');
    expect((await read(2)).state).toBe('locked');

    // The sweep, queued again by hand as a start queues it, releases nothing young and comes back for it.
    const { jobs } = server.app.context;
    await jobs.enqueue('mergeRequests.releaseStaleLocks', {});
    await jobs.idle();
    expect((await read(2)).state).toBe('locked');
    const later = await db
      .selectFrom('jobs')
      .select('run_at')
      .where('kind', '=', 'mergeRequests.releaseStaleLocks')
      .where('state', '=', 'queued')
      .execute();
    expect(later).toHaveLength(1);
    const due = Date.parse(later[0]?.run_at ?? '');
    expect(due).toBeGreaterThan(now + MERGE_LOCK_TIMEOUT_MS - 60_000);
    expect(due).toBeLessThan(now + MERGE_LOCK_TIMEOUT_MS);
  });
});
