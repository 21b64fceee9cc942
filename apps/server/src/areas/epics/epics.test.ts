// What the conformance suite cannot see from a higher-tier demo server: epics answer 403 on the free tier
// (after 401 and the group's 404), `confidential` is ignored while the confidential_epics flag is off,
// dates roll up through several levels and back when a child goes, and other areas are told of state changes
// in the writing transaction.
import { afterEach, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from '../../appServer.testSupport.js';
import { ANONYMOUS } from '../../core/access/caller.js';
import { ApiError } from '../../core/http/errors.js';
import type { InstanceSettings } from '../../core/instance.js';
import type { Fixtures } from '../../core/store/fixturesFile.js';
import { type EpicStateChange, findReadableEpic, onEpicStateChange } from './index.js';

const FIXTURES: Fixtures = {
  users: ['olga', 'rita', 'otto'].map((username) => ({
    username,
    name: username,
    email: `${username}@example.com`,
    tokens: [{ name: 'test', token: `${username}-token`, scopes: ['api'] }],
  })),
  groups: [
    {
      path: 'g',
      name: 'G',
      visibility: 'public',
      members: [
        { username: 'olga', access_level: 50 },
        { username: 'rita', access_level: 20 },
      ],
      epics: [
        { title: 'Parent', author: 'olga' },
        { title: 'Child', author: 'olga', parent: 1, start_date_fixed: '2026-03-01' },
      ],
    },
    { path: 'secret', name: 'Secret', visibility: 'private' },
  ],
  projects: [],
};

let running: AppServer | undefined;

async function start(instance: Partial<InstanceSettings>): Promise<AppServer> {
  running = await startAppServer('epics', { fixtures: FIXTURES, instance });
  return running;
}

afterEach(async () => {
  await running?.close();
  running = undefined;
});

interface EpicBody {
  id: number;
  iid: number;
  confidential: boolean;
  state: string;
  start_date: string | null;
  due_date: string | null;
  start_date_from_inherited_source?: string | null;
  due_date_from_inherited_source?: string | null;
}

async function call<T = unknown>(
  on: AppServer,
  user: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = user ? { 'PRIVATE-TOKEN': `${user}-token` } : {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${on.base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

describe('epics on the free tier', () => {
  it('answer 401 without a token, 404 for a hidden group, then 403 for every operation', async () => {
    const on = await start({ tier: 'free' });
    expect((await call(on, null, 'GET', '/groups/g/epics')).status).toBe(401);
    expect((await call(on, 'otto', 'GET', '/groups/secret/epics')).status).toBe(404);
    const operations: [string, string, unknown?][] = [
      ['GET', '/groups/g/epics'],
      ['GET', '/groups/g/epics/1'],
      ['POST', '/groups/g/epics', { title: 'New' }],
      ['PUT', '/groups/g/epics/1', { title: 'Changed' }],
      ['DELETE', '/groups/g/epics/1'],
      ['POST', '/groups/g/epics/1/todo'],
    ];
    for (const [method, path, body] of operations)
      expect((await call(on, 'olga', method, path, body)).status, `${method} ${path}`).toBe(403);
  });
});

describe('epics on the higher tier', () => {
  it('ignore confidential while the confidential_epics flag is off', async () => {
    const on = await start({ tier: 'premium' });
    const created = await call<EpicBody>(on, 'rita', 'POST', '/groups/g/epics', {
      title: 'Open',
      confidential: true,
    });
    expect(created.status).toBe(201);
    expect(created.body.confidential).toBe(false);
    const updated = await call<EpicBody>(on, 'rita', 'PUT', `/groups/g/epics/${created.body.iid}`, {
      confidential: true,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.confidential).toBe(false);
  });

  it('roll dates up through every level, and back when a child goes', async () => {
    const on = await start({ tier: 'premium' });
    const parent = await call<EpicBody>(on, 'olga', 'GET', '/groups/g/epics/1');
    // From the fixtures: the child's fixed start is the parent's inherited one.
    expect(parent.body.start_date).toBe('2026-03-01');
    const grandchild = await call<EpicBody>(on, 'olga', 'POST', '/groups/g/epics', {
      title: 'Grandchild',
      parent_id: 2,
      start_date_is_fixed: true,
      start_date_fixed: '2026-01-15',
      due_date_is_fixed: true,
      due_date_fixed: '2026-12-31',
    });
    expect(grandchild.status).toBe(201);
    const child = await call<EpicBody>(on, 'olga', 'GET', '/groups/g/epics/2');
    expect(child.body.start_date).toBe('2026-03-01');
    expect(child.body.start_date_from_inherited_source).toBe('2026-01-15');
    expect(child.body.due_date).toBe('2026-12-31');
    const top = await call<EpicBody>(on, 'olga', 'GET', '/groups/g/epics/1');
    expect(top.body.start_date).toBe('2026-03-01');
    expect(top.body.due_date).toBe('2026-12-31');
    expect((await call(on, 'olga', 'DELETE', `/groups/g/epics/${grandchild.body.iid}`)).status).toBe(204);
    const after = await call<EpicBody>(on, 'olga', 'GET', '/groups/g/epics/1');
    expect(after.body.due_date).toBeNull();
    expect(after.body.due_date_from_inherited_source).toBeNull();
  });

  it('tell listeners of closes and reopens in the writing transaction, and share readable epics', async () => {
    const on = await start({ tier: 'premium' });
    const seen: Omit<EpicStateChange, 'db'>[] = [];
    onEpicStateChange(on.app.context, async ({ db, ...change }) => {
      // The listener's reads see the change it is told of (the same transaction).
      const row = await db
        .selectFrom('epics')
        .select('state')
        .where('id', '=', change.epic.id)
        .executeTakeFirst();
      expect(row?.state).toBe(change.state);
      seen.push(change);
    });
    await call(on, 'rita', 'PUT', '/groups/g/epics/1', { state_event: 'close' });
    await call(on, 'rita', 'PUT', '/groups/g/epics/1', { state_event: 'close' });
    await call(on, 'rita', 'PUT', '/groups/g/epics/1', { state_event: 'reopen' });
    expect(seen.map((change) => change.state)).toEqual(['closed', 'opened']);
    expect(seen[0]?.epic.closed_at).toBe(seen[0]?.at);

    const epic = await on.app.context.db
      .selectFrom('epics')
      .select('id')
      .where('iid', '=', 1)
      .executeTakeFirstOrThrow();
    await expect(findReadableEpic(on.app.context, ANONYMOUS, 'g', epic.id)).rejects.toMatchObject({
      status: 401,
    });
    const caller = {
      user: {
        id: 2,
        username: 'rita',
        name: 'rita',
        email: '',
        state: 'active',
        isAdmin: false,
        avatarUrl: null,
        createdAt: '',
      },
      scopes: ['api'],
    };
    const readable = await findReadableEpic(on.app.context, caller, 'g', epic.id);
    expect(readable.epic.id).toBe(epic.id);
    expect(readable.accessLevel).toBe(20);
    await expect(findReadableEpic(on.app.context, caller, 'g', epic.id + 1000)).rejects.toBeInstanceOf(
      ApiError,
    );
  });
});
