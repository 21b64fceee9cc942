// Group lists on 10,000 groups: a page holds exactly the rows of its window in the list's order, the
// headers count the whole filtered collection (visibility, membership hierarchy, parent, search), and a
// request runs the same few SQL statements whether its page has 5 groups or 100 (one page read, no query
// per group while presenting it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  type ListServer,
  pageHeaders,
  startListServer,
} from '../../core/http/pagination.testSupport.js';

const COUNT = 10_000;
/** Of which this many are subgroups of the private group `big`, of which the developer is a member. */
const IN_BIG = 3_000;
const DEVELOPER_TOKEN = 'collab-demo-developer-token';
const VISIBILITIES = ['public', 'internal', 'private'] as const;

let server: ListServer;
/** The inserted groups, as the list orders them by name (then id). */
let inserted: { id: number; name: string; visibility: string; parent: boolean }[] = [];
let demoGroups: { id: number; name: string; visibility: string }[] = [];
let bigId = 0;
/** SQL statements run since the last reset. */
let statements: string[] = [];

beforeAll(async () => {
  server = await startListServer();
  const { db } = server.app.context;
  const executor = db.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = (query, queryId) => {
    statements.push(query.sql);
    return execute(query, queryId);
  };
  demoGroups = await db
    .selectFrom('groups')
    .select(['id', 'name', 'visibility'])
    .where('kind', '=', 'group')
    .execute();
  const now = new Date().toISOString();
  const big = await db
    .insertInto('groups')
    .values({
      name: 'Big',
      path: 'big',
      full_path: 'big',
      parent_id: null,
      visibility: 'private',
      description: '',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  bigId = big.id;
  const developer = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'developer')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('members')
    .values({
      source_type: 'Group',
      source_id: bigId,
      user_id: developer.id,
      access_level: 30,
      created_at: now,
    })
    .execute();
  // Straight into the database, in batches; names in reverse of the insertion order, so that the name order
  // is not the id order.
  for (let start = 0; start < COUNT; start += 500) {
    const batch = Array.from({ length: 500 }, (_, i) => start + i);
    const rows = batch.map((i) => {
      const parent = i < IN_BIG;
      const path = `scale-${String(COUNT - i).padStart(5, '0')}`;
      return {
        name: `Scale ${String(COUNT - i).padStart(5, '0')}`,
        path,
        full_path: parent ? `big/${path}` : path,
        parent_id: parent ? bigId : null,
        visibility: VISIBILITIES[i % 3] ?? 'private',
        description: '',
        created_at: now,
      };
    });
    const ids = await db.insertInto('groups').values(rows).returning('id').execute();
    ids.forEach((row, i) => {
      const source = rows[i];
      if (source)
        inserted.push({
          id: row.id,
          name: source.name,
          visibility: source.visibility,
          parent: source.parent_id !== null,
        });
    });
  }
  inserted = inserted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const ids = (body: unknown) => (body as { id: number }[]).map((group) => group.id);

describe('personal namespaces', () => {
  it('are never groups: not listed, not readable as a group', async () => {
    const { db } = server.app.context;
    const personal = await db
      .insertInto('groups')
      .values({
        name: 'Aaa Personal',
        path: 'aaa-personal',
        full_path: 'aaa-personal',
        parent_id: null,
        visibility: 'public',
        description: '',
        created_at: new Date().toISOString(),
        kind: 'user',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      const first = await server.get('/groups?per_page=5', ADMIN_TOKEN);
      expect(ids(first.body)).not.toContain(personal.id);
      const search = await server.get('/groups?search=aaa-personal', ADMIN_TOKEN);
      expect(search.body).toEqual([]);
      expect((await server.get(`/groups/${personal.id}`, ADMIN_TOKEN)).status).toBe(404);
      expect((await server.get('/groups/aaa-personal/subgroups', ADMIN_TOKEN)).status).toBe(404);
    } finally {
      await db.deleteFrom('groups').where('id', '=', personal.id).execute();
    }
  });
});

describe('GET /groups on 10,000 groups', () => {
  it('gives an administrator every group, one page in name order, with the totals', async () => {
    const all = [
      ...inserted,
      { id: bigId, name: 'Big', visibility: 'private', parent: false },
      ...demoGroups,
    ];
    const ordered = all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    const answer = await server.get('/groups?page=40&per_page=100', ADMIN_TOKEN);
    expect(answer.status).toBe(200);
    expect(ids(answer.body)).toEqual(ordered.slice(3900, 4000).map((group) => group.id));
    expect(answer.headers).toMatchObject(pageHeaders(ordered.length, 40, 100));
    const byIdDesc = await server.get('/groups?order_by=id&sort=desc&per_page=7&page=3', ADMIN_TOKEN);
    const descending = ordered.map((group) => group.id).sort((a, b) => b - a);
    expect(ids(byIdDesc.body)).toEqual(descending.slice(14, 21));
  });

  it('gives an anonymous caller the public groups only, counted', async () => {
    const publicOnes = [...inserted, ...demoGroups]
      .filter((group) => group.visibility === 'public')
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    const answer = await fetchAnonymous('/groups?page=12&per_page=50');
    expect(answer.total).toBe(publicOnes.length);
    expect(answer.ids).toEqual(publicOnes.slice(550, 600).map((group) => group.id));
  });

  it("gives a member the membership's descendants, whatever their visibility, and searches them", async () => {
    const answer = await server.get('/groups?per_page=100&page=2', DEVELOPER_TOKEN);
    // The developer's demo groups (Acme and its subgroups) and Big with its 3,000 subgroups.
    const acme = await server.get('/groups?per_page=100', DEVELOPER_TOKEN);
    const total = Number(acme.headers['x-total']);
    expect(total).toBeGreaterThan(IN_BIG + 1);
    expect(answer.headers).toMatchObject(pageHeaders(total, 2, 100));
    const inBig = inserted.filter((group) => group.parent);
    const search = await server.get('/groups?search=scale%2001&per_page=100', DEVELOPER_TOKEN);
    const expected = inBig.filter((group) => group.name.toLowerCase().includes('scale 01'));
    expect(search.headers['x-total']).toBe(String(expected.length));
    expect(ids(search.body)).toEqual(expected.slice(0, 100).map((group) => group.id));
  });

  it('lists the subgroups of a group with 3,000 of them, one page', async () => {
    const inBig = inserted.filter((group) => group.parent);
    const answer = await server.get(`/groups/${bigId}/subgroups?page=25&per_page=100`, DEVELOPER_TOKEN);
    expect(answer.status).toBe(200);
    expect(ids(answer.body)).toEqual(inBig.slice(2400, 2500).map((group) => group.id));
    expect(answer.headers).toMatchObject(pageHeaders(IN_BIG, 25, 100));
    const past = await server.get(`/groups/${bigId}/subgroups?page=31&per_page=100`, DEVELOPER_TOKEN);
    expect(past.body).toEqual([]);
  });

  it('runs the same few statements for a page of 5 groups as for one of 100', async () => {
    const { db } = server.app.context;
    const counted = async (perPage: number) => {
      // Both pages are read with nothing cached: the count of the filtered collection, the pages and what
      // access reads are kept until the database changes (CachedUntilDatabaseChange), and whether a warmed
      // count survives until the measured request is not for this test to decide. On PostgreSQL the
      // database's version is the cluster's snapshot, which the other test files' writes to their own
      // databases change at any time: a count warmed before was read again for one page and not for the
      // other (5 statements for 4). A write of this process changes the version on both backends.
      await db.updateTable('groups').set({ description: '' }).where('id', '=', bigId).execute();
      statements = [];
      const path = `/groups?statistics=true&with_custom_attributes=true&page=3&per_page=${perPage}`;
      const answer = await server.get(path, ADMIN_TOKEN);
      expect(ids(answer.body)).toHaveLength(perPage);
      return statements.filter((text) => /\b(groups|custom_attributes|projects)\b/.test(text));
    };
    const small = await counted(5);
    const large = await counted(100);
    expect(large.length).toBe(small.length);
    expect(large.length).toBeLessThanOrEqual(5);
    // The page itself is cut in SQL.
    expect(large.some((text) => /\blimit\b/i.test(text) && /\boffset\b/i.test(text))).toBe(true);
  });
});

async function fetchAnonymous(path: string): Promise<{ total: number; ids: number[] }> {
  const answer = await server.send('GET', path, '');
  return { total: Number(answer.headers['x-total']), ids: ids(answer.body) };
}
