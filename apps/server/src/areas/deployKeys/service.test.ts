import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CollabApp, createApp } from '../../app.js';
import { type Caller, callerForToken } from '../../core/access/caller.js';
import type { Fixtures } from '../../core/store/fixturesFile.js';
import {
  addDeployKey,
  deleteDeployKey,
  enableDeployKey,
  listAllDeployKeys,
  listProjectDeployKeys,
} from './service.js';
import { newEd25519Key } from './sshKeys.testSupport.js';

const FIXTURES: Fixtures = {
  users: ['admin', 'alice', 'bob'].map((username) => ({
    username,
    name: username,
    email: `${username}@example.com`,
    admin: username === 'admin',
    tokens: [{ name: 'test', token: `${username}-token`, scopes: ['api'] }],
  })),
  groups: [{ path: 'g', name: 'G', visibility: 'private' }],
  projects: [
    {
      namespace: 'g',
      path: 'a',
      name: 'A',
      visibility: 'private',
      creator: 'alice',
      members: [{ username: 'alice', access_level: 40 }],
    },
    {
      namespace: 'g',
      path: 'b',
      name: 'B',
      visibility: 'private',
      creator: 'bob',
      members: [{ username: 'bob', access_level: 40 }],
    },
    {
      namespace: 'g',
      path: 'c',
      name: 'C',
      visibility: 'private',
      creator: 'bob',
      members: [{ username: 'bob', access_level: 40 }],
    },
    {
      namespace: 'g',
      path: 'd',
      name: 'D',
      visibility: 'private',
      creator: 'alice',
      members: [
        { username: 'alice', access_level: 40 },
        { username: 'bob', access_level: 30 },
      ],
    },
  ],
};

const TAKEN = {
  status: 400,
  body: { message: { 'deploy_key.fingerprint_sha256': ['has already been taken'] } },
};

let dataDir: string;
let server: CollabApp;
const callers: Record<string, Caller> = {};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'deploy-keys-test-'));
  server = await createApp({ dataDir, fixtures: FIXTURES });
  for (const name of ['admin', 'alice', 'bob'])
    callers[name] = await callerForToken(server.context.db, `${name}-token`);
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const as = (name: string): Caller => {
  const caller = callers[name];
  if (!caller) throw new Error(`no caller ${name}`);
  return caller;
};
const keysOf = async (project: string) =>
  (await listProjectDeployKeys(server.context, as('admin'), project, { offset: 0, limit: 100 })).items.map(
    (k) => k.id,
  );

describe('reusing a key of another project', () => {
  it('refuses a key used only by projects the caller does not maintain (400 taken), enable answers 404', async () => {
    const key = newEd25519Key();
    const added = await addDeployKey(server.context, as('alice'), 'g/a', { title: 'alice key', key });
    // bob maintains b but not a, and is only a developer of d.
    await expect(
      addDeployKey(server.context, as('bob'), 'g/b', { title: 'stolen', key }),
    ).rejects.toMatchObject(TAKEN);
    await expect(enableDeployKey(server.context, as('bob'), 'g/b', added.id)).rejects.toMatchObject({
      status: 404,
    });
    expect(await keysOf('g/b')).toEqual([]);
    await addDeployKey(server.context, as('alice'), 'g/d', { title: 'alice key', key });
    await expect(
      addDeployKey(server.context, as('bob'), 'g/b', { title: 'stolen', key }),
    ).rejects.toMatchObject(TAKEN);
    const all = await listAllDeployKeys(server.context, as('admin'), { offset: 0, limit: 100 });
    expect(all.items.filter((k) => k.id === added.id)).toHaveLength(1);
  });

  it('joins the key once the caller maintains a project using it; administrators may always', async () => {
    const key = newEd25519Key();
    const added = await addDeployKey(server.context, as('alice'), 'g/a', { title: 'first', key });
    const byAdmin = await addDeployKey(server.context, as('admin'), 'g/b', {
      title: 'ignored',
      key,
      can_push: true,
    });
    expect(byAdmin).toMatchObject({ id: added.id, title: 'first', can_push: true });
    // bob maintains b, which now uses the key: he may add it to c; a second add to c is taken.
    const byBob = await addDeployKey(server.context, as('bob'), 'g/c', { title: 'ignored', key });
    expect(byBob).toMatchObject({ id: added.id, can_push: false });
    await expect(
      addDeployKey(server.context, as('bob'), 'g/c', { title: 'twice', key }),
    ).rejects.toMatchObject(TAKEN);
  });

  it('enables a key for a caller who maintains a project using it, and deletes it only with its last use', async () => {
    const added = await addDeployKey(server.context, as('bob'), 'g/b', {
      title: 'bob key',
      key: newEd25519Key(),
    });
    await expect(enableDeployKey(server.context, as('alice'), 'g/a', added.id)).rejects.toMatchObject({
      status: 404,
    });
    expect(await enableDeployKey(server.context, as('bob'), 'g/c', added.id)).toMatchObject({
      id: added.id,
      can_push: false,
    });
    await deleteDeployKey(server.context, as('bob'), 'g/b', added.id);
    expect(await keysOf('g/c')).toContain(added.id);
    await deleteDeployKey(server.context, as('bob'), 'g/c', added.id);
    const left = await server.context.db
      .selectFrom('deploy_keys')
      .select('id')
      .where('id', '=', added.id)
      .execute();
    expect(left).toEqual([]);
  });
});
