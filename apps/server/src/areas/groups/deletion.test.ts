// Deleting a group: the group and its subgroups go with every row of theirs in every table (by a group,
// ancestor, epic or label column, or a polymorphic pair naming a Group), their projects with their
// repositories on disk, and their avatars; another group and its project stay whole.
import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from '../../appServer.testSupport.js';
import type { Db } from '../../core/store/database.js';
import type { Fixtures } from '../../core/store/fixturesFile.js';
import { avatarDirectory } from '../avatars/index.js';

const FIXTURES: Fixtures = {
  users: ['admin', 'olga', 'otto'].map((username) => ({
    username,
    name: username,
    email: `${username}@example.com`,
    admin: username === 'admin',
    tokens: [{ name: 'test', token: `${username}-token`, scopes: ['api'] }],
  })),
  groups: [
    { path: 'kept', name: 'Kept', visibility: 'public', members: [{ username: 'olga', access_level: 50 }] },
  ],
  projects: [
    {
      namespace: 'kept',
      path: 'stays',
      name: 'stays',
      visibility: 'public',
      creator: 'olga',
      repository: { files: { 'README.md': '# stays\n' } },
    },
  ],
};

let server: AppServer;

beforeAll(async () => {
  // Epics are a higher tier's.
  server = await startAppServer('group-deletion', { fixtures: FIXTURES, instance: { tier: 'premium' } });
});
afterAll(async () => {
  await server?.close();
});

async function call(
  user: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { 'PRIVATE-TOKEN': `${user}-token` };
  let payload: string | FormData | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${server.base}${path}`, { method, headers, body: payload });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function made(
  user: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ id: number; iid?: number }> {
  const answer = await call(user, method, path, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(201);
  return answer.body as { id: number; iid?: number };
}

/** Rows naming any of the groups in any table of the schema. */
async function rowsOfGroups(db: Db, ids: readonly number[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const list = sql.join(ids);
  for (const table of await db.introspection.getTables()) {
    const columns = new Set(table.columns.map((column) => column.name));
    const conditions = [];
    for (const column of ['group_id', 'ancestor_id', 'namespace_id'])
      if (columns.has(column)) conditions.push(sql`${sql.ref(column)} in (${list})`);
    if (columns.has('source_type') && columns.has('source_id'))
      conditions.push(sql`(source_type = 'Group' and source_id in (${list}))`);
    if (columns.has('subject_type') && columns.has('subject_id'))
      conditions.push(sql`(subject_type = 'Group' and subject_id in (${list}))`);
    if (table.name === 'groups') conditions.push(sql`id in (${list})`);
    if (conditions.length === 0) continue;
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table.name)}
      where ${sql.join(conditions, sql` or `)}`.execute(db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) counts[table.name] = n;
  }
  return counts;
}

describe('DELETE /groups/:id', () => {
  it('removes the subtree, its rows everywhere, its repositories and avatars, and nothing else', async () => {
    const { db } = server.app.context;
    const form = new FormData();
    form.set('name', 'Doomed');
    form.set('path', 'doomed');
    form.set('avatar', new Blob([Buffer.from('89504e470d0a1a0a00', 'hex')], { type: 'image/png' }), 'a.png');
    const group = await made('olga', 'POST', '/groups', form);
    const child = await made('olga', 'POST', '/groups', {
      name: 'Child',
      path: 'child',
      parent_id: group.id,
    });
    const project = await made('olga', 'POST', '/projects', {
      name: 'Inside',
      namespace_id: child.id,
      initialize_with_readme: true,
    });
    await made('olga', 'POST', `/groups/${group.id}/members`, { user_id: 3, access_level: 30 });
    await made('olga', 'POST', `/groups/${child.id}/members`, { user_id: 3, access_level: 40 });
    await made('olga', 'POST', `/groups/${group.id}/labels`, { name: 'bug', color: '#ff0000' });
    await made('olga', 'POST', `/groups/${group.id}/badges`, {
      link_url: 'https://example.com',
      image_url: 'https://example.com/b.svg',
    });
    const epic = await made('olga', 'POST', `/groups/${group.id}/epics`, { title: 'Epic', labels: 'bug' });
    await made('olga', 'POST', `/groups/${group.id}/epics/${epic.iid}/notes`, { body: 'Hello @otto' });

    const repository = server.app.context.storages.pathFor('default', project.id);
    expect(existsSync(repository)).toBe(true);
    expect(existsSync(avatarDirectory(server.dataDir, 'group', group.id))).toBe(true);
    const ids = [group.id, child.id];
    expect(Object.keys(await rowsOfGroups(db, ids)).length).toBeGreaterThan(5);

    expect((await call('otto', 'DELETE', `/groups/${group.id}`)).status).toBe(403);
    expect((await call('olga', 'DELETE', `/groups/${group.id}`)).status).toBe(202);

    expect(await rowsOfGroups(db, ids)).toEqual({});
    expect(await db.selectFrom('projects').select('id').where('id', '=', project.id).execute()).toEqual([]);
    expect(await db.selectFrom('epics').select('id').where('id', '=', epic.id).execute()).toEqual([]);
    expect(existsSync(repository)).toBe(false);
    expect(existsSync(avatarDirectory(server.dataDir, 'group', group.id))).toBe(false);
    // The other group and its project are whole.
    expect(
      (await call('otto', 'GET', '/projects/kept%2Fstays/repository/files/README.md?ref=main')).status,
    ).toBe(200);
    expect((await call('otto', 'GET', '/groups/kept/members')).body).toHaveLength(1);
  });
});
