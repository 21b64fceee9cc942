// Deleting a snippet, personal or of a project, deletes what hangs on it by type and ID (GitLab's Snippet
// destroys its notes and award emoji; to-dos go with their target): its notes, reactions and to-dos, and
// nothing of another snippet. The notes come through the API; the API makes no reaction to a snippet nor
// to-do about one (GitLab's Note#can_create_todo? leaves snippet notes out), so those rows are written here
// as another path (a fixtures file, an older server) may have left them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from '../../appServer.testSupport.js';
import { nowIso } from '../../core/store/database.js';
import type { Fixtures } from '../../core/store/fixturesFile.js';

const FIXTURES: Fixtures = {
  users: ['sara', 'otto', 'root'].map((username) => ({
    username,
    name: username,
    email: `${username}@example.com`,
    admin: username === 'root',
    tokens: [{ name: 'test', token: `${username}-token`, scopes: ['api'] }],
  })),
  groups: [
    { path: 'team', name: 'Team', visibility: 'public', members: [{ username: 'sara', access_level: 40 }] },
  ],
  projects: [{ namespace: 'team', path: 'code', name: 'code', visibility: 'public', creator: 'sara' }],
};

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer('snippet-deletion', { fixtures: FIXTURES });
});
afterAll(async () => {
  await server?.close();
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  user = 'sara',
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { 'PRIVATE-TOKEN': `${user}-token` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${server.base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function made(path: string, body: unknown, user = 'sara'): Promise<number> {
  const answer = await call('POST', path, body, user);
  expect(answer.status, `POST ${path}: ${JSON.stringify(answer.body)}`).toBe(201);
  return (answer.body as { id: number }).id;
}

/**
 * A snippet of `author` at `collection` with a note through the API, and a reaction and a to-do of the
 * other user about it in the tables.
 */
async function snippetWithWhatHangsOn(collection: string, author = 'sara'): Promise<number> {
  const { db } = server.app.context;
  const other = author === 'sara' ? 'otto' : 'sara';
  const fields = { title: 'Doomed', file_name: 'a.txt', content: 'a\n', visibility: 'public' };
  const id = await made(collection, fields, author);
  if (collection !== '/snippets') await made(`${collection}/${id}/notes`, { body: 'A note on it' });
  const users = await db.selectFrom('users').select(['id', 'username']).execute();
  const userId = (name: string) => users.find((user) => user.username === name)?.id ?? 0;
  const now = nowIso();
  await db
    .insertInto('award_emoji')
    .values({
      name: 'thumbsup',
      user_id: userId(other),
      awardable_type: 'Snippet',
      awardable_id: id,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('todos')
    .values({
      user_id: userId(other),
      author_id: userId(author),
      project_id: null,
      group_id: null,
      target_type: 'Snippet',
      target_id: id,
      action: 'mentioned',
      body: 'Doomed',
      note_id: null,
      state: 'pending',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** How many rows of each table name the snippet by type and ID. */
async function hangingOn(id: number): Promise<number[]> {
  const { db } = server.app.context;
  const count = async (query: Promise<{ n: number | string | bigint }[]>) => Number((await query)[0]?.n ?? 0);
  return [
    await count(
      db
        .selectFrom('notes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('noteable_type', '=', 'Snippet')
        .where('noteable_id', '=', id)
        .execute(),
    ),
    await count(
      db
        .selectFrom('award_emoji')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('awardable_type', '=', 'Snippet')
        .where('awardable_id', '=', id)
        .execute(),
    ),
    await count(
      db
        .selectFrom('todos')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('target_type', '=', 'Snippet')
        .where('target_id', '=', id)
        .execute(),
    ),
  ];
}

describe('DELETE of a snippet', () => {
  it('deletes the notes, reactions and to-dos of a project snippet, and none of another', async () => {
    const project = encodeURIComponent('team/code');
    const collection = `/projects/${project}/snippets`;
    const doomed = await snippetWithWhatHangsOn(collection);
    const kept = await snippetWithWhatHangsOn(collection);
    expect(await hangingOn(doomed)).toEqual([1, 1, 1]);
    expect((await call('DELETE', `${collection}/${doomed}`)).status).toBe(204);
    expect(await hangingOn(doomed)).toEqual([0, 0, 0]);
    expect(await hangingOn(kept)).toEqual([1, 1, 1]);
    expect((await call('GET', `${collection}/${kept}/notes`)).body).toHaveLength(1);
  });

  it('deletes the reactions and to-dos of a personal snippet', async () => {
    const doomed = await snippetWithWhatHangsOn('/snippets');
    expect(await hangingOn(doomed)).toEqual([0, 1, 1]);
    expect((await call('DELETE', `/snippets/${doomed}`)).status).toBe(204);
    expect(await hangingOn(doomed)).toEqual([0, 0, 0]);
    expect((await call('DELETE', `/snippets/${doomed}`)).status).toBe(404);
  });

  it("goes with its author's deletion, with its reactions and to-dos", async () => {
    const doomed = await snippetWithWhatHangsOn('/snippets', 'otto');
    expect(await hangingOn(doomed)).toEqual([0, 1, 1]);
    const otto = await server.app.context.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'otto')
      .executeTakeFirstOrThrow();
    expect((await call('DELETE', `/users/${otto.id}`, undefined, 'root')).status).toBe(204);
    expect(await hangingOn(doomed)).toEqual([0, 0, 0]);
  });
});
