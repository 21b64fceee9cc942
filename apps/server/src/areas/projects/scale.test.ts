// A project list at scale: 3,000 projects written straight into the database, read as pages. The totals and
// the pages' contents follow the visibility rules (membership of a group, public projects of others, private
// projects of others hidden), offset page 2 and a deep keyset page hold exactly the expected projects, and
// the page query walks an index in the list's order instead of sorting the whole table.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListServer, startListServer } from '../../core/http/pagination.testSupport.js';
import { isPostgres } from '../../core/store/dialect.js';

let server: ListServer;
/** IDs of the inserted projects the demo maintainer sees, ascending. */
const visible: number[] = [];
let demoVisible = 0;

beforeAll(async () => {
  server = await startListServer();
  const { db } = server.app.context;
  const maintainer = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'maintainer')
    .executeTakeFirstOrThrow();
  // What the demo maintainer sees before the 3,000 (the demo fixtures' projects).
  demoVisible = Number((await server.get('/projects?per_page=1')).headers['x-total']);
  const now = new Date().toISOString();
  const group = async (path: string, member: boolean): Promise<number> => {
    const { id } = await db
      .insertInto('groups')
      .values({
        name: path,
        path,
        full_path: path,
        parent_id: null,
        visibility: 'private',
        description: '',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (member)
      await db
        .insertInto('members')
        .values({
          source_type: 'Group',
          source_id: id,
          user_id: maintainer.id,
          access_level: 30,
          created_at: now,
        })
        .execute();
    return id;
  };
  // Mine: private, seen through membership; theirs: public or private by turns, only the public ones seen.
  const mine = await group('scale-mine', true);
  const theirs = await group('scale-theirs', false);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < 3000; i++) {
      const own = i % 3 === 0;
      const visibility = own || i % 3 === 1 ? (own ? 'private' : 'public') : 'private';
      const { id } = await trx
        .insertInto('projects')
        .values({
          name: `Scale ${i}`,
          path: `scale-${i}`,
          namespace_id: own ? mine : theirs,
          visibility,
          description: null,
          default_branch: 'main',
          archived: 0,
          repository_storage: 'default',
          creator_id: maintainer.id,
          created_at: now,
          last_activity_at: now,
          repository_generation: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (own || visibility === 'public') visible.push(id);
    }
  });
}, 60_000);

afterAll(async () => {
  await server.close();
});

const ids = (body: unknown) => (body as { id: number }[]).map((project) => project.id);

describe('a project list of 3,000 projects', () => {
  it('counts what the caller may see and reads page 2 by offset', async () => {
    const { status, headers, body } = await server.get('/projects?order_by=id&sort=desc&per_page=20&page=2');
    expect(status).toBe(200);
    expect(headers['x-total']).toBe(String(demoVisible + visible.length));
    expect(ids(body)).toEqual([...visible].reverse().slice(20, 40));
    // Only the inserted projects (the demo's private ones come before them).
    const own = await server.get(
      `/projects?order_by=id&sort=asc&per_page=5&page=2&min_access_level=30&visibility=private&id_after=${(visible[0] as number) - 1}`,
    );
    expect(ids(own.body)).toEqual(visible.filter((_, index) => index % 2 === 0).slice(5, 10));
  });

  it('reads a deep keyset page and its next link', async () => {
    const cursor = visible[1500] as number;
    const { status, headers, body } = await server.get(
      `/projects?pagination=keyset&order_by=id&sort=asc&per_page=20&id_after=${cursor}`,
    );
    expect(status).toBe(200);
    expect(ids(body)).toEqual(visible.slice(1501, 1521));
    expect(headers['x-total']).toBe('(none)');
    expect(headers.link).toContain(`id_after=${visible[1520]}`);
  });

  it('walks the index of the order instead of sorting every project', async () => {
    const { db } = server.app.context;
    const query = sql`select * from projects as p order by p.created_at desc, p.id desc limit 20`;
    // Each backend's own words for a plan: SQLite sorts in a "TEMP B-TREE", PostgreSQL in a "Sort" step.
    if (isPostgres(db)) {
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(db);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/projects_created_at_id/);
      expect(plan).not.toMatch(/Sort/);
      return;
    }
    const { rows } = await sql<{ detail: string }>`explain query plan ${query}`.execute(db);
    const plan = rows.map((row) => row.detail).join('\n');
    expect(plan).toMatch(/projects_created_at_id/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});
