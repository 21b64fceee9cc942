// What the conformance suite cannot pin down on a shared server: a note created or modified touches its
// object's `updated_at` (GitLab's Note#touch_noteable), on an issue, an epic and a project snippet alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from '../../appServer.testSupport.js';
import type { Fixtures } from '../../core/store/fixturesFile.js';

const FIXTURES: Fixtures = {
  instance: { tier: 'premium' },
  users: [
    {
      username: 'olga',
      name: 'Olga',
      email: 'olga@example.com',
      tokens: [{ name: 'test', token: 'olga-token', scopes: ['api'] }],
    },
  ],
  groups: [
    {
      path: 'g',
      name: 'G',
      visibility: 'public',
      members: [{ username: 'olga', access_level: 50 }],
      epics: [{ title: 'An epic', author: 'olga', created_days_ago: 3 }],
    },
  ],
  projects: [
    {
      namespace: 'g',
      path: 'p',
      name: 'P',
      visibility: 'public',
      creator: 'olga',
      issues: [{ title: 'An issue', author: 'olga', created_days_ago: 3 }],
      snippets: [
        {
          title: 'A snippet',
          author: 'olga',
          visibility: 'public',
          files: { 'a.txt': 'a' },
          created_days_ago: 3,
        },
      ],
    },
  ],
};

let server: AppServer;
let base: string;

beforeAll(async () => {
  server = await startAppServer('notes', { fixtures: FIXTURES });
  base = server.base;
});

afterAll(async () => {
  await server.close();
});

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { 'PRIVATE-TOKEN': 'olga-token' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

interface Timestamps {
  id: number;
  created_at: string;
  updated_at: string;
}

/** Where each kind of object is read and where its notes are (an epic's notes go by its ID, not its iid). */
async function paths(kind: string): Promise<{ read: string; notes: string }> {
  if (kind === 'issue') return { read: '/projects/g%2Fp/issues/1', notes: '/projects/g%2Fp/issues/1/notes' };
  if (kind === 'epic') {
    const epic = await call<Timestamps>('GET', '/groups/g/epics/1');
    return { read: '/groups/g/epics/1', notes: `/groups/g/epics/${epic.body.id}/notes` };
  }
  const [snippet] = (await call<Timestamps[]>('GET', '/projects/g%2Fp/snippets')).body;
  const read = `/projects/g%2Fp/snippets/${snippet?.id}`;
  return { read, notes: `${read}/notes` };
}

describe('a note touches its object', () => {
  it.each(['issue', 'epic', 'project snippet'])(
    '%s: created and modified notes set its updated_at',
    async (kind) => {
      const { read, notes } = await paths(kind);
      const before = (await call<Timestamps>('GET', read)).body.updated_at;

      const created = await call<Timestamps>('POST', notes, { body: 'A comment.' });
      expect(created.status).toBe(201);
      const afterCreate = (await call<Timestamps>('GET', read)).body.updated_at;
      expect(afterCreate > before).toBe(true);
      expect(afterCreate).toBe(created.body.updated_at);

      const modified = await call<Timestamps>('PUT', `${notes}/${created.body.id}`, { body: 'Changed.' });
      expect(modified.status).toBe(200);
      const afterModify = (await call<Timestamps>('GET', read)).body.updated_at;
      expect(afterModify >= afterCreate).toBe(true);
      expect(afterModify).toBe(modified.body.updated_at);
    },
  );
});
