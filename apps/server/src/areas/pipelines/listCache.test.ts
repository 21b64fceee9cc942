// The pipeline list's pages are kept until the next write, by project, filters and window
// (store.ts pageOfPipelines, through readNamedPageOf): each read of the same page after a write sees the write, and pages that differ
// in a filter or the window are never confused.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from '../../appServer.testSupport.js';
import { DEMO_FIXTURES_PATH } from '../../config.js';
import { readFixturesFile } from '../../core/store/fixturesFile.js';

const HEADERS = { 'PRIVATE-TOKEN': 'collab-demo-maintainer-token' };
let server: AppServer;
let pipelines: string;

beforeAll(async () => {
  const fixtures = await readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH));
  server = await startAppServer('pipeline-list-cache', { fixtures, pipelineTimeScale: 0.01 });
  pipelines = `${server.base}/projects/acme%2Fwebsite/pipelines`;
});
afterAll(async () => {
  await server?.close();
});

async function list(query = ''): Promise<{ ids: number[]; total: string | null }> {
  const response = await fetch(`${pipelines}${query}`, { headers: HEADERS });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { id: number }[];
  return { ids: body.map((pipeline) => pipeline.id), total: response.headers.get('x-total') };
}

async function createPipeline(): Promise<number> {
  const response = await fetch(`${server.base}/projects/acme%2Fwebsite/pipeline`, {
    method: 'POST',
    headers: { ...HEADERS, 'Content-Type': 'application/json' },
    body: JSON.stringify({ ref: 'main' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

describe('the pipeline list between writes', () => {
  it('shows a pipeline created after the same page was read', async () => {
    const before = await list();
    expect(await list()).toEqual(before);
    const id = await createPipeline();
    const after = await list();
    expect(after.ids[0]).toBe(id);
    expect(after.ids.slice(1)).toEqual(before.ids);
  });

  it('keeps pages of other filters and windows apart', async () => {
    await createPipeline();
    const all = await list();
    expect(all.ids.length).toBeGreaterThanOrEqual(2);
    expect((await list('?per_page=1')).ids).toEqual(all.ids.slice(0, 1));
    expect((await list('?per_page=1&page=2')).ids).toEqual(all.ids.slice(1, 2));
    expect((await list('?sort=asc')).ids).toEqual([...all.ids].reverse());
    expect(await list('?ref=no-such-branch')).toEqual({ ids: [], total: '0' });
    expect((await list()).ids).toEqual(all.ids);
  });
});
