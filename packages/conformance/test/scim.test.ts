// SCIM provisioning (document 2, section 4.15; GitLab's API::Scim::GroupScim where the seeds are silent),
// served under /api/scim/v2 with the group's bearer token: the list with its filters and SCIM pagination,
// provisioning (user, SSO identity, membership at the group's default level), reads by external UID, PATCH
// of the mapped attributes, deprovisioning, and the SCIM error shape (RFC 7644, section 3.12) for every
// error: a missing or wrong token, an unknown group, a group without single sign-on, conflicts, invalid
// filters and requests the spec refuses. Every response is validated against the spec (target.fetch).
//
// On a shared server the file provisions users whose names carry the run's suffix and deprovisions them
// again; the users themselves stay (deprovisioning keeps the account, as GitLab does), under names no
// later run reuses.
import {
  type components,
  createScimClient,
  type operations,
  type ScimClient,
  type ScimErrorBody,
} from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  againstSuiteServer,
  configFromEnvironment,
  demoConfig,
  openTarget,
  RUN,
  startLocalServer,
  type Target,
  targetFor,
} from '../src/index.js';
import { callAs } from './callAs.js';

const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GUEST = 10;

// A configured server without SCIM fixtures skips the file; the local server has them.
const configured = configFromEnvironment();
const hasScim = configured === undefined || configured.fixtures.scim !== undefined;

let target: Target;
let scim: { group: string; token: string; groupWithoutSso: string };
let client: ScimClient;

interface ScimAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

type ScimUser = components['schemas']['ScimUser'];
type ScimUserList = components['schemas']['ScimUserList'];
/** The v4 user list. */
type UserList = operations['listUsers']['responses'][200]['content']['application/json'];

interface RawOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The Authorization header's value; the group's token as a bearer by default, none with `null`. */
  authorization?: string | null;
  headers?: Record<string, string>;
  /** A JSON body (sent as `application/scim+json` unless `contentType` says otherwise) or raw text. */
  json?: unknown;
  text?: string;
  contentType?: string;
  query?: Record<string, string>;
  /** Another server than the file's (the free-tier one). */
  on?: Target;
}

/** A request below /api/scim/v2 through the validating fetch. */
async function raw<T = unknown>(path: string, options: RawOptions = {}): Promise<ScimAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const authorization = options.authorization === undefined ? `Bearer ${scim.token}` : options.authorization;
  if (authorization !== null) headers.Authorization = authorization;
  let body: string | undefined;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  if (options.text !== undefined) body = options.text;
  if (body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/scim+json';
  const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  const server = options.on ?? target;
  const response = await server.fetch(`${server.config.baseUrl}/api/scim/v2${path}${query}`, {
    method: options.method ?? 'GET',
    headers,
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : undefined) as T,
    headers: response.headers,
    text,
  };
}

const usersPath = (group = scim.group) => `/groups/${encodeURIComponent(group)}/Users`;
const userPath = (id: string, group = scim.group) => `${usersPath(group)}/${encodeURIComponent(id)}`;

function expectScimError(answer: ScimAnswer, status: number, detail?: RegExp, scimType?: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  const body = answer.body as ScimErrorBody;
  expect(body.schemas).toEqual([ERROR_SCHEMA]);
  expect(body.status).toBe(String(status));
  expect(typeof body.detail).toBe('string');
  if (detail) expect(body.detail).toMatch(detail);
  if (scimType) expect(body.scimType).toBe(scimType);
}

let counter = 0;
/** A new user's SCIM attributes, unique to this run. */
function newUser(label: string) {
  counter += 1;
  const name = `scim-${label}-${RUN}-${counter}`;
  return {
    externalId: `ext-${name}`,
    userName: name,
    email: `${name}@example.com`,
    body: {
      schemas: [USER_SCHEMA],
      externalId: `ext-${name}`,
      userName: name,
      active: true,
      emails: [{ type: 'work', value: `${name}@example.com`, primary: true }],
      name: { formatted: `Scim ${label} ${counter}`, givenName: 'Scim', familyName: label },
      meta: { resourceType: 'User' },
    },
  };
}

async function provision(label: string) {
  const user = newUser(label);
  const answer = await raw<ScimUser>(usersPath(), { method: 'POST', json: user.body });
  expect(answer.status).toBe(201);
  return user;
}

/** The v4 user id of a username (the administrator lists users by username). */
async function userIdOf(username: string): Promise<number> {
  const answer = await callAs<UserList>(target, 'admin', '/users', {
    query: { username },
  });
  expect(answer.status).toBe(200);
  const [found] = answer.body;
  if (!found) throw new Error(`no user ${username}`);
  return found.id;
}

/** The user's direct membership of the SCIM group, through the v4 API (404 when there is none). */
async function membershipOf(username: string): Promise<{ status: number; level?: number }> {
  const id = await userIdOf(username);
  const answer = await callAs<components['schemas']['Member']>(
    target,
    'admin',
    `/groups/${encodeURIComponent(scim.group)}/members/${id}`,
  );
  return { status: answer.status, level: answer.status === 200 ? answer.body.access_level : undefined };
}

describe.skipIf(!hasScim)('SCIM provisioning', () => {
  beforeAll(async () => {
    target = await openTarget();
    const fixtures = target.config.fixtures.scim;
    if (!fixtures) throw new Error('the config has no fixtures.scim');
    scim = fixtures;
    client = createScimClient({
      baseUrl: target.config.baseUrl,
      token: scim.token,
      fetch: target.fetch,
      retry: false,
    });
  });
  afterAll(async () => {
    await target?.close();
  });

  describe('authentication and the group', () => {
    const validBody = () => newUser('auth').body;
    const patchBody = { Operations: [{ op: 'Replace', path: 'name.formatted', value: 'Nobody' }] };
    const operations = (group?: string): [string, RawOptions][] => [
      [usersPath(group), {}],
      [usersPath(group), { method: 'POST', json: validBody() }],
      [userPath(`no-such-${RUN}`, group), {}],
      [userPath(`no-such-${RUN}`, group), { method: 'PATCH', json: patchBody }],
      [userPath(`no-such-${RUN}`, group), { method: 'DELETE' }],
    ];

    it('a missing token, a wrong one, a PRIVATE-TOKEN or another scheme: 401 in the SCIM shape', async () => {
      for (const [path, options] of operations()) {
        for (const authorization of [
          null,
          `Bearer no-such-token-${RUN}`,
          `Basic ${Buffer.from(`x:${scim.token}`).toString('base64')}`,
          'Bearer',
        ]) {
          const answer = await raw(path, { ...options, authorization });
          expectScimError(answer, 401, /Unauthorized/);
        }
        const personal = await raw(path, {
          ...options,
          authorization: null,
          headers: { 'PRIVATE-TOKEN': target.config.tokens.admin },
        });
        expectScimError(personal, 401);
      }
    });

    it('an unknown group: 404; a group without single sign-on: 404, whatever the token', async () => {
      for (const [path, options] of operations(`no-such-group-${RUN}`)) {
        expectScimError(await raw(path, options), 404, /not found/);
        expectScimError(await raw(path, { ...options, authorization: null }), 404, /not found/);
      }
      for (const [path, options] of operations(scim.groupWithoutSso)) {
        expectScimError(await raw(path, options), 404, /does not have SAML SSO configured/);
      }
    });

    it('the Bearer scheme is read in any case', async () => {
      const answer = await raw<ScimUserList>(usersPath(), { authorization: `bearer ${scim.token}` });
      expect(answer.status).toBe(200);
    });
  });

  describe('provisioning', () => {
    it('creates the user, its SSO identity and a Guest membership (201, application/scim+json)', async () => {
      const user = newUser('create');
      const answer = await raw<ScimUser>(usersPath(), { method: 'POST', json: user.body });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(answer.body).toEqual({
        schemas: [USER_SCHEMA],
        id: user.externalId,
        active: true,
        'name.formatted': user.body.name.formatted,
        userName: user.userName,
        meta: { resourceType: 'User' },
        emails: [{ type: 'work', value: user.email, primary: true }],
      });
      expect(await membershipOf(user.userName)).toEqual({ status: 200, level: GUEST });
      const read = await raw<ScimUser>(userPath(user.externalId));
      expect(read.status).toBe(200);
      expect(read.body).toEqual(answer.body);
    });

    it('takes application/json too, through the client (which sends Authorization: Bearer)', async () => {
      const user = newUser('client');
      const { data, response } = await client.POST('/groups/{group_path}/Users', {
        params: { path: { group_path: scim.group } },
        body: user.body,
      });
      expect(response.status).toBe(201);
      expect(data?.id).toBe(user.externalId);
      const { data: read } = await client.GET('/groups/{group_path}/Users/{id}', {
        params: { path: { group_path: scim.group, id: user.externalId } },
      });
      expect(read?.userName).toBe(user.userName);
    });

    it('an e-mail-shaped userName gives the part before @; the name may come from givenName and familyName', async () => {
      const user = newUser('shape');
      const answer = await raw<ScimUser>(usersPath(), {
        method: 'POST',
        json: {
          ...user.body,
          userName: `${user.userName}@idp.example.com`,
          name: { givenName: 'Ada', familyName: 'Lovelace' },
          emails: [
            { type: 'home', value: `home-${user.email}`, primary: false },
            { type: 'work', value: user.email },
          ],
        },
      });
      expect(answer.status).toBe(201);
      expect(answer.body.userName).toBe(user.userName);
      expect(answer.body['name.formatted']).toBe('Ada Lovelace');
      expect(answer.body.emails[0]?.value).toBe(user.email);
    });

    it('409 in the SCIM shape when the externalId (in any case), the username or the e-mail is taken', async () => {
      const first = await provision('taken');
      const again = newUser('taken');
      const conflicts = [
        { ...again.body, externalId: first.externalId.toUpperCase() },
        { ...again.body, userName: first.userName.toUpperCase() },
        { ...again.body, emails: [{ type: 'work', value: first.email, primary: true }] },
        // Usernames share their namespace with top-level groups.
        { ...again.body, userName: scim.group.split('/')[0] },
      ];
      for (const body of conflicts) {
        const answer = await raw(usersPath(), { method: 'POST', json: body });
        expectScimError(answer, 409, /has already been taken/, 'uniqueness');
      }
      // Nothing of a refused user remains: the same user is provisioned once the conflict is gone.
      expect((await raw(usersPath(), { method: 'POST', json: again.body })).status).toBe(201);
    });

    it('400 in the SCIM shape for a body the spec or the service refuses', async () => {
      const user = newUser('invalid');
      const { userName: _userName, ...withoutUserName } = user.body;
      const refused: RawOptions[] = [
        { json: withoutUserName },
        { json: { ...user.body, externalId: '' } },
        { json: { ...user.body, emails: [{ type: 'home', value: user.email, primary: false }] } },
        { json: { ...user.body, emails: [{ type: 'work', value: 'not-an-address' }] } },
        { json: { ...user.body, name: {} } },
        { json: { ...user.body, userName: '@@@' } },
        { text: '{"externalId": ' },
        { text: 'externalId=x', contentType: 'text/plain' },
        {
          text: new URLSearchParams({ externalId: 'x' }).toString(),
          contentType: 'application/x-www-form-urlencoded',
        },
      ];
      for (const options of refused) {
        const answer = await raw(usersPath(), { method: 'POST', ...options });
        expect(answer.status, JSON.stringify(options)).toBe(400);
        expectScimError(answer, 400);
      }
      // None of them provisioned the user.
      expectScimError(await raw(userPath(user.externalId)), 404, /not found/);
    });
  });

  describe('the list', () => {
    it('filters by id, externalId and userName with eq, in the ListResponse envelope', async () => {
      const user = await provision('list');
      for (const filter of [
        `id eq "${user.externalId}"`,
        `externalId eq "${user.externalId.toUpperCase()}"`,
        `userName eq "${user.userName}"`,
        `USERNAME EQ "${user.userName.toUpperCase()}"`,
      ]) {
        const answer = await raw<ScimUserList>(usersPath(), { query: { filter } });
        expect(answer.status, filter).toBe(200);
        expect(answer.headers.get('content-type')).toMatch(/^application\/scim\+json/);
        expect(answer.body.schemas).toEqual([LIST_SCHEMA]);
        expect(answer.body.totalResults, filter).toBe(1);
        expect(answer.body.startIndex).toBe(1);
        expect(answer.body.itemsPerPage).toBe(20);
        expect(answer.body.Resources.map((resource) => resource.id)).toEqual([user.externalId]);
      }
      const none = await raw<ScimUserList>(usersPath(), { query: { filter: `id eq "no-such-${RUN}"` } });
      expect(none.body.totalResults).toBe(0);
      expect(none.body.Resources).toEqual([]);
    });

    it('other operators and attributes: 400 with scimType invalidFilter', async () => {
      for (const filter of [
        'userName co "scim"',
        'id ne "x"',
        'emails eq "a@example.com"',
        'id eq x',
        'id pr',
      ]) {
        expectScimError(
          await raw(usersPath(), { query: { filter } }),
          400,
          /Unsupported Filter/,
          'invalidFilter',
        );
      }
    });

    it('startIndex below 1 is 1; count pages (below 1: 20, above 100: 100)', async () => {
      await provision('page');
      await provision('page');
      const all = await raw<ScimUserList>(usersPath(), { query: { count: '100' } });
      expect(all.status).toBe(200);
      const total = all.body.totalResults;
      expect(total).toBeGreaterThanOrEqual(2);
      for (const startIndex of ['0', '-5']) {
        const answer = await raw<ScimUserList>(usersPath(), { query: { startIndex, count: '1' } });
        expect(answer.body.startIndex).toBe(1);
        expect(answer.body.itemsPerPage).toBe(1);
        expect(answer.body.Resources).toHaveLength(1);
      }
      const first = await raw<ScimUserList>(usersPath(), { query: { startIndex: '1', count: '1' } });
      const second = await raw<ScimUserList>(usersPath(), { query: { startIndex: '2', count: '1' } });
      expect(second.body.startIndex).toBe(2);
      expect(second.body.totalResults).toBe(total);
      expect(second.body.Resources[0]?.id).not.toBe(first.body.Resources[0]?.id);
      expect((await raw<ScimUserList>(usersPath(), { query: { count: '0' } })).body.itemsPerPage).toBe(20);
      expect((await raw<ScimUserList>(usersPath(), { query: { count: '1000' } })).body.itemsPerPage).toBe(
        100,
      );
      const past = await raw<ScimUserList>(usersPath(), { query: { startIndex: String(total + 1) } });
      expect(past.body.Resources).toEqual([]);
      expect(past.body.totalResults).toBe(total);
    });

    it('a parameter of the wrong type: 400 in the SCIM shape', async () => {
      expectScimError(await raw(usersPath(), { query: { count: 'many' } }), 400);
      expectScimError(await raw(usersPath(), { query: { startIndex: 'first' } }), 400);
    });
  });

  describe('updates', () => {
    it('Replace and Add of the mapped attributes: 204, applied', async () => {
      const user = await provision('patch');
      const renamed = `${user.userName}-renamed`;
      const answer = await raw(userPath(user.externalId), {
        method: 'PATCH',
        json: {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [
            { op: 'Replace', path: 'name.formatted', value: 'Grace Hopper' },
            { op: 'replace', path: 'emails[type eq "work"].value', value: `new-${user.email}` },
            { op: 'Add', path: 'userName', value: renamed },
            { op: 'Remove', path: 'title', value: 'ignored' },
            { op: 'Replace', path: 'displayName', value: 'ignored too' },
            { op: 'add', value: { active: true } },
          ],
        },
      });
      expect(answer.status).toBe(204);
      expect(answer.text).toBe('');
      const read = await raw<ScimUser>(userPath(user.externalId));
      expect(read.body['name.formatted']).toBe('Grace Hopper');
      expect(read.body.userName).toBe(renamed);
      expect(read.body.emails[0]?.value).toBe(`new-${user.email}`);

      // The external UID changes: the user is read by the new one only.
      const moved = `${user.externalId}-moved`;
      const idChange = await raw(userPath(user.externalId), {
        method: 'PATCH',
        json: { Operations: [{ op: 'Replace', path: 'externalId', value: moved }] },
      });
      expect(idChange.status).toBe(204);
      expect((await raw<ScimUser>(userPath(moved))).body.id).toBe(moved);
      expectScimError(await raw(userPath(user.externalId)), 404);
    });

    it('409 when the new username, e-mail or external UID is taken, and nothing is applied', async () => {
      const first = await provision('patch-taken');
      const second = await provision('patch-taken');
      for (const operation of [
        { op: 'Replace', path: 'userName', value: first.userName },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: first.email },
        { op: 'Replace', path: 'id', value: first.externalId },
      ]) {
        const answer = await raw(userPath(second.externalId), {
          method: 'PATCH',
          json: { Operations: [{ op: 'Replace', path: 'name.formatted', value: 'Changed' }, operation] },
        });
        expectScimError(answer, 409, /has already been taken/, 'uniqueness');
      }
      const read = await raw<ScimUser>(userPath(second.externalId));
      expect(read.body['name.formatted']).toBe(second.body.name.formatted);
    });

    it('400 for a value not of its attribute kind or an operation the spec refuses', async () => {
      const user = await provision('patch-invalid');
      const refused = [
        { Operations: [{ op: 'Replace', path: 'active', value: 'perhaps' }] },
        { Operations: [{ op: 'Replace', path: 'emails[type eq "work"].value', value: 'no-address' }] },
        { Operations: [{ op: 'Replace', path: 'userName', value: '' }] },
        { Operations: [{ op: 'Replace', value: 'not an object' }] },
        { Operations: [{ op: 'Move', path: 'userName', value: 'x' }] },
        { Operations: [{ op: 'Replace', path: 'userName' }] },
        {},
      ];
      for (const json of refused)
        expectScimError(await raw(userPath(user.externalId), { method: 'PATCH', json }), 400);
    });

    it('active=false (also as "False") removes the identity and keeps the membership', async () => {
      for (const value of [false, 'False'] as const) {
        const user = await provision('deactivate');
        const answer = await raw(userPath(user.externalId), {
          method: 'PATCH',
          json: { Operations: [{ op: 'Replace', path: 'active', value }] },
        });
        expect(answer.status).toBe(204);
        expectScimError(await raw(userPath(user.externalId)), 404, /not found/);
        const listed = await raw<ScimUserList>(usersPath(), {
          query: { filter: `id eq "${user.externalId}"` },
        });
        expect(listed.body.totalResults).toBe(0);
        expect(await membershipOf(user.userName)).toEqual({ status: 200, level: GUEST });
        // The identity is gone: a second PATCH finds no user.
        expectScimError(
          await raw(userPath(user.externalId), {
            method: 'PATCH',
            json: { Operations: [{ op: 'Replace', path: 'active', value: false }] },
          }),
          404,
        );
      }
    });
  });

  describe('deprovisioning', () => {
    it('DELETE answers 204 and removes the identity and the group membership; the account stays', async () => {
      const user = await provision('delete');
      const answer = await raw(userPath(user.externalId), { method: 'DELETE' });
      expect(answer.status).toBe(204);
      expect(answer.text).toBe('');
      expectScimError(await raw(userPath(user.externalId)), 404, /not found/);
      expect((await membershipOf(user.userName)).status).toBe(404);
      expect(await userIdOf(user.userName)).toBeGreaterThan(0);
      expectScimError(await raw(userPath(user.externalId), { method: 'DELETE' }), 404);
    });

    it('through the client', async () => {
      const user = await provision('delete-client');
      const { response } = await client.DELETE('/groups/{group_path}/Users/{id}', {
        params: { path: { group_path: scim.group, id: user.externalId } },
      });
      expect(response.status).toBe(204);
    });
  });

  describe('paths and methods', () => {
    it('an unknown SCIM path: 404 in the SCIM shape', async () => {
      // Not an operation of the spec: sent with the plain fetch (the validating one refuses to judge it).
      const response = await fetch(`${target.config.baseUrl}/api/scim/v2/Groups`, {
        headers: { Authorization: `Bearer ${scim.token}` },
      });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(await response.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '404' });
    });

    it('a method the path does not have: 405 naming the methods, in the SCIM shape', async () => {
      const response = await fetch(`${target.config.baseUrl}/api/scim/v2${userPath(`x-${RUN}`)}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${scim.token}`, 'Content-Type': 'application/scim+json' },
        body: '{}',
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toMatch(/PATCH/);
      expect(await response.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '405' });
    });
  });
});

// The free tier has no SCIM (GitLab's licensed group_scim feature): a server of this repository started with
// the demo fixtures on the free tier, so only where the suite starts its own servers.
describe.skipIf(!againstSuiteServer())('SCIM on the free tier', () => {
  let free: Target;
  beforeAll(async () => {
    const local = await startLocalServer({
      fixtures: (demo) => ({ ...demo, instance: { ...demo.instance, tier: 'free' } }),
    });
    free = targetFor(demoConfig(local.baseUrl), local);
    scim = free.config.fixtures.scim ?? scim;
  }, 300_000);
  afterAll(async () => {
    await free?.close();
  });

  it('every operation answers 403 in the SCIM shape, after the group lookup', async () => {
    const user = newUser('free');
    const patch = { Operations: [{ op: 'Replace', path: 'name.formatted', value: 'x' }] };
    const requests: [string, RawOptions][] = [
      [usersPath(), {}],
      [usersPath(), { method: 'POST', json: user.body }],
      [userPath(user.externalId), {}],
      [userPath(user.externalId), { method: 'PATCH', json: patch }],
      [userPath(user.externalId), { method: 'DELETE' }],
    ];
    for (const [path, options] of requests) {
      expectScimError(await raw(path, { ...options, on: free }), 403, /Group SCIM not enabled/);
      // An unknown group is still a 404.
      const unknown = path.replace(usersPath(), usersPath(`no-such-group-${RUN}`));
      expectScimError(await raw(unknown, { ...options, on: free }), 404);
    }
  });
});
