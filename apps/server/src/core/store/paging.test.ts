// Lists paged in SQL (readPageOf): pages of 10,000 deploy keys and 10,000 pipelines hold exactly the
// rows of their window, the headers count the whole collection and follow writes at once (the count is
// cached until the database changes), and a page past the end, however large, is an empty list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  type ListServer,
  pageHeaders,
  startListServer,
} from '../http/pagination.testSupport.js';
import type { Schemas } from '../http/types.js';
import { openDatabase } from './database.js';
import { countKeyOf, readNamedPageOf } from './paging.js';
import { testDatabaseOf } from './testPostgres.js';

const COUNT = 10_000;
const PROJECT = '/projects/acme%2Ftools';
/** The largest page the spec takes (2^53 - 1, what an ID or a page can be here); past it a page is a 400. */
const HUGE = String(Number.MAX_SAFE_INTEGER);

let server: ListServer;
/** Ids of the seeded rows, oldest first. */
let keyIds: number[] = [];
let pipelineIds: number[] = [];
let ownerPipelineIds: number[] = [];

beforeAll(async () => {
  server = await startListServer();
  const { db } = server.app.context;
  const project = await db
    .selectFrom('projects')
    .select('id')
    .where('path', '=', 'tools')
    .executeTakeFirstOrThrow();
  const users = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('username', 'in', ['maintainer', 'owner'])
    .execute();
  const userId = (username: string) => users.find((user) => user.username === username)?.id ?? 0;
  const now = new Date().toISOString();
  // Straight into the database, in batches: 10,000 API calls would take minutes.
  for (let start = 0; start < COUNT; start += 500) {
    const batch = Array.from({ length: 500 }, (_, i) => start + i);
    const keys = await db
      .insertInto('deploy_keys')
      .values(
        batch.map((i) => ({
          title: `key ${i}`,
          key: `ssh-ed25519 AAAA${String(i).padStart(8, '0')} key-${i}`,
          fingerprint_sha256: `SHA256:paging-test-${i}`,
          created_at: now,
        })),
      )
      .returning('id')
      .execute();
    await db
      .insertInto('deploy_keys_projects')
      .values(
        keys.map((key) => ({ project_id: project.id, deploy_key_id: key.id, can_push: 0, created_at: now })),
      )
      .execute();
    keyIds.push(...keys.map((key) => key.id));
    const pipelines = await db
      .insertInto('pipelines')
      .values(
        batch.map((i) => ({
          project_id: project.id,
          iid: i + 1,
          sha: 'a'.repeat(40),
          before_sha: '0'.repeat(40),
          ref: 'main',
          tag: 0,
          status: 'success',
          source: 'push',
          yaml_errors: null,
          // Every third pipeline is the owner's, the others the maintainer's.
          user_id: userId(i % 3 === 0 ? 'owner' : 'maintainer'),
          created_at: now,
          updated_at: now,
          started_at: null,
          finished_at: null,
          committed_at: null,
          duration: null,
          coverage: null,
        })),
      )
      .returning('id')
      .execute();
    pipelineIds.push(...pipelines.map((pipeline) => pipeline.id));
    ownerPipelineIds.push(
      ...pipelines.filter((_, i) => (start + i) % 3 === 0).map((pipeline) => pipeline.id),
    );
  }
  keyIds = keyIds.sort((a, b) => a - b);
  pipelineIds = pipelineIds.sort((a, b) => a - b);
  ownerPipelineIds = ownerPipelineIds.sort((a, b) => a - b);
});

afterAll(async () => {
  await server?.close();
});

const ids = (body: unknown) => (body as { id: number }[]).map((item) => item.id);

describe('a page of 10,000 deploy keys', () => {
  it('holds the rows of its window, oldest first; the last page what is left', async () => {
    const middle = await server.get(`${PROJECT}/deploy_keys?page=50&per_page=100`);
    expect(middle.status).toBe(200);
    expect(ids(middle.body)).toEqual(keyIds.slice(4900, 5000));
    expect(middle.headers).toMatchObject(pageHeaders(COUNT, 50, 100));
    const last = await server.get(`${PROJECT}/deploy_keys?page=137&per_page=73`);
    expect(ids(last.body)).toEqual(keyIds.slice(136 * 73));
    expect(ids(last.body)).toHaveLength(72);
    expect(last.headers).toMatchObject(pageHeaders(COUNT, 137, 73));
    expect((last.body as Schemas['DeployKey'][])[0]).toMatchObject({
      title: `key ${136 * 73}`,
      can_push: false,
    });
  });

  it('counts again as soon as the collection changes', async () => {
    const before = await server.get(`${PROJECT}/deploy_keys?per_page=1`);
    expect(before.headers['x-total']).toBe(String(COUNT));
    const removed = await server.send('DELETE', `${PROJECT}/deploy_keys/${keyIds[0]}`);
    expect(removed.status).toBe(204);
    const after = await server.get(`${PROJECT}/deploy_keys?per_page=1`);
    expect(after.headers).toMatchObject(pageHeaders(COUNT - 1, 1, 1));
    expect(ids(after.body)).toEqual([keyIds[1]]);
    keyIds.shift();
  });
});

describe('a page read again', () => {
  it('is the same between writes, and follows a write by another process on the same file at once', async () => {
    const path = `${PROJECT}/deploy_keys?page=3&per_page=5`;
    const first = await server.get(path);
    expect(await server.get(path)).toEqual(first);
    const [id] = ids(first.body);
    // Another connection to the database, as another server process or the move-storage command has.
    const { dataDir } = server.app.context;
    const other = await openDatabase(dataDir, (await testDatabaseOf(dataDir))?.url);
    try {
      await other
        .updateTable('deploy_keys')
        .set({ title: 'renamed elsewhere' })
        .where('id', '=', id ?? 0)
        .execute();
    } finally {
      await other.destroy();
    }
    const again = await server.get(path);
    expect(ids(again.body)).toEqual(ids(first.body));
    expect((again.body as Schemas['DeployKey'][])[0]?.title).toBe('renamed elsewhere');
  });
});

describe('a page named by its caller (readNamedPageOf)', () => {
  it('is read once between writes, again after a write, and apart from pages of other names', async () => {
    const { db } = server.app.context;
    let reads = 0;
    const read = (total: number) => async () => {
      reads++;
      return { items: [reads], total };
    };
    const first = await readNamedPageOf(db, 'test-list:1', read(1));
    expect(await readNamedPageOf(db, 'test-list:1', read(1))).toBe(first);
    expect(reads).toBe(1);
    expect(await readNamedPageOf(db, 'test-list:2', read(2))).toEqual({ items: [2], total: 2 });
    await db
      .updateTable('deploy_keys')
      .set({ title: 'renamed here' })
      .where('id', '=', keyIds[0] ?? 0)
      .execute();
    expect(await readNamedPageOf(db, 'test-list:1', read(1))).toEqual({ items: [3], total: 1 });
    expect(reads).toBe(3);
  });
});

describe('a page of 10,000 pipelines', () => {
  it('holds the rows of its window, newest first', async () => {
    const answer = await server.get(`${PROJECT}/pipelines?page=2&per_page=100`);
    expect(answer.status).toBe(200);
    expect(ids(answer.body)).toEqual(pipelineIds.slice(COUNT - 200, COUNT - 100).reverse());
    expect(answer.headers).toMatchObject(pageHeaders(COUNT, 2, 100));
  });

  it("filters by the user's username before it counts and cuts", async () => {
    const answer = await server.get(`${PROJECT}/pipelines?username=owner&sort=asc&page=3&per_page=100`);
    expect(ids(answer.body)).toEqual(ownerPipelineIds.slice(200, 300));
    expect(answer.headers).toMatchObject(pageHeaders(ownerPipelineIds.length, 3, 100));
    const nobody = await server.get(`${PROJECT}/pipelines?username=nobody`);
    expect(nobody.body).toEqual([]);
    expect(nobody.headers).toMatchObject(pageHeaders(0, 1, 20));
  });
});

describe('a page past the end, however large', () => {
  const lists: [string, string, string?][] = [
    ['features', '/features', ADMIN_TOKEN],
    ['instance deploy keys', '/deploy_keys', ADMIN_TOKEN],
    ['project deploy keys', `${PROJECT}/deploy_keys`],
    ['pipelines', `${PROJECT}/pipelines`],
    ['protected branches', '/projects/acme%2Fwebsite/protected_branches'],
    ['remote mirrors', `${PROJECT}/remote_mirrors`],
    ['storage moves', '/project_repository_storage_moves', ADMIN_TOKEN],
    ['branches', `${PROJECT}/repository/branches`],
  ];
  it.each(lists)('is an empty list of %s with the headers, never a 5xx', async (_, path, token) => {
    const answer = await server.get(`${path}?page=${HUGE}&per_page=100`, token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
    const total = Number(answer.headers['x-total']);
    expect(Number.isSafeInteger(total)).toBe(true);
    expect(answer.headers).toMatchObject({
      'x-total-pages': String(Math.max(1, Math.ceil(total / 100))),
      'x-per-page': '100',
      'x-next-page': '',
    });
    expect(answer.headers['x-page']).toMatch(/^\d+$/);
  });

  it('refuses a page past the largest the spec takes, naming it', async () => {
    const answer = await server.get(`${PROJECT}/pipelines?page=99999999999999999999999`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: expect.stringMatching(/^page /) });
  });

  it('is empty for pipeline variables too', async () => {
    const answer = await server.get(`${PROJECT}/pipelines/${pipelineIds[0]}/variables?page=${HUGE}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
    expect(answer.headers['x-total']).toBe('0');
  });
});

describe('the key of a cached count', () => {
  const windowOf = (offset: number, limit: number) => ({ offset, limit });
  const rowsOf = (offset: number, limit: number, ref = 'main') =>
    server.app.context.db
      .selectFrom('pipelines')
      .select('id')
      .where('ref', '=', ref)
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .compile();

  it('is one for every window of one query, and another for other filters', () => {
    const first = countKeyOf(rowsOf(0, 20), windowOf(0, 20));
    expect(countKeyOf(rowsOf(40, 20), windowOf(40, 20))).toBe(first);
    expect(countKeyOf(rowsOf(20, 20), windowOf(20, 20))).toBe(first);
    expect(countKeyOf(rowsOf(0, 20, 'develop'), windowOf(0, 20))).not.toBe(first);
  });

  it('keeps the window when the query does not end with it', () => {
    const query = server.app.context.db.selectFrom('pipelines').select('id').where('id', '=', 20).compile();
    expect(countKeyOf(query, windowOf(0, 20))).toBe(JSON.stringify([query.sql, [20]]));
  });
});
