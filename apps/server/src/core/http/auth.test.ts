// The token carriers and sudo against the real application: what the conformance suite cannot reach with a
// configuration's tokens (an administrator's token without the sudo scope, a blocked token owner).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from '../../appServer.testSupport.js';
import type { Fixtures } from '../store/fixturesFile.js';
import { queryParameter } from './auth.js';

const FIXTURES: Fixtures = {
  users: [
    {
      username: 'root',
      name: 'Root',
      email: 'root@example.com',
      admin: true,
      tokens: [
        { name: 'sudo', token: 'root-sudo-token', scopes: ['api', 'sudo'] },
        { name: 'api', token: 'root-api-token', scopes: ['api'] },
      ],
    },
    {
      username: 'Someone',
      name: 'Someone',
      email: 'someone@example.com',
      tokens: [{ name: 'sudo', token: 'someone-sudo-token', scopes: ['api', 'sudo'] }],
    },
  ],
  groups: [],
  projects: [],
};

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer('auth', { fixtures: FIXTURES });
});
afterAll(async () => {
  await server.close();
});

async function currentUser(headers: Record<string, string>, query = '') {
  const response = await fetch(`${server.base}/user${query}`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('sudo', () => {
  it("needs the token's sudo scope: an administrator's api-only token gets 403 insufficient_scope", async () => {
    const answer = await currentUser({ 'PRIVATE-TOKEN': 'root-api-token', Sudo: 'someone' });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error: 'insufficient_scope' });
  });

  it('names the user by username, case-insensitively, or by ID', async () => {
    const byName = await currentUser({ 'PRIVATE-TOKEN': 'root-sudo-token' }, '?sudo=SOMEONE');
    expect(byName).toMatchObject({ status: 200, body: { username: 'Someone' } });
    const byId = await currentUser({ Authorization: 'Bearer root-sudo-token', Sudo: String(byName.body.id) });
    expect(byId).toMatchObject({ status: 200, body: { username: 'Someone' } });
  });

  it('is for administrators, whatever the scopes of their token', async () => {
    const answer = await currentUser({ 'PRIVATE-TOKEN': 'someone-sudo-token', Sudo: 'root' });
    expect(answer).toEqual({ status: 403, body: { message: '403 Forbidden - Must be admin to use sudo' } });
  });

  it('an empty sudo is no sudo', async () => {
    const answer = await currentUser({ 'PRIVATE-TOKEN': 'someone-sudo-token' }, '?sudo=');
    expect(answer).toMatchObject({ status: 200, body: { username: 'Someone' } });
  });
});

describe('Authorization', () => {
  it('takes Bearer in any case of the scheme, and ignores other schemes', async () => {
    expect(await currentUser({ Authorization: 'bearer root-api-token' })).toMatchObject({ status: 200 });
    expect((await currentUser({ Authorization: 'Basic cm9vdDpzZWNyZXQ=' })).status).toBe(401);
  });
});

describe('queryParameter', () => {
  it('reads a parameter as URLSearchParams does, its name percent-encoded or not', () => {
    expect(queryParameter('/api/v4/user?ref=main&private_token=abc', 'private_token')).toBe('abc');
    expect(queryParameter('/api/v4/user?private%5Ftoken=a%2Bb', 'private_token')).toBe('a+b');
    expect(queryParameter('/api/v4/user?%73udo=root', 'sudo')).toBe('root');
    expect(queryParameter('/api/v4/user?sudo=a+b#sudo=c', 'sudo')).toBe('a b');
  });

  it('is undefined without a query, without the parameter, or with an empty value', () => {
    expect(queryParameter('/api/v4/user', 'sudo')).toBeUndefined();
    expect(queryParameter('/api/v4/user?ref=main', 'sudo')).toBeUndefined();
    expect(queryParameter('/api/v4/user?pseudo=x', 'sudo')).toBeUndefined();
    expect(queryParameter('/api/v4/user?sudo=', 'sudo')).toBeUndefined();
  });
});

describe('private_token', () => {
  it('is read from the query beside other parameters, its name percent-encoded too', async () => {
    const plain = await currentUser({}, '?per_page=1&private_token=root-api-token');
    expect(plain).toMatchObject({ status: 200, body: { username: 'root' } });
    const encoded = await currentUser({}, '?private%5Ftoken=root-api-token');
    expect(encoded).toMatchObject({ status: 200, body: { username: 'root' } });
  });
});
