import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, openTarget, type Target } from '../src/index.js';
import { newKey } from './sshKeys.js';

let target: Target;
let project: string;
let privateProject: string;
let internalProject: string;

beforeAll(async () => {
  target = await openTarget();
  project = target.config.fixtures.publicProject;
  privateProject = target.config.fixtures.privateProject;
  internalProject = target.config.fixtures.internalProject;
});
afterAll(async () => {
  await target.close();
});

const ALL = '/deploy_keys' as const;
const LIST = '/projects/{id}/deploy_keys' as const;
const ONE = '/projects/{id}/deploy_keys/{key_id}' as const;
const ENABLE = '/projects/{id}/deploy_keys/{key_id}/enable' as const;

async function addKey(id: string, title: string, key: string, canPush?: boolean) {
  const body = canPush === undefined ? { title, key } : { title, key, can_push: canPush };
  return target.as('maintainer').POST(LIST, { params: { path: { id } }, body });
}

/** The IDs of every key of project `id`, or of the instance, all pages: runs against one server add up. */
async function keyIds(id?: string): Promise<number[]> {
  if (id === undefined) {
    const admin = target.as('admin');
    const keys = await collect(
      admin.paginate(() => admin.GET(ALL, { params: { query: { per_page: 100 } } })),
    );
    return keys.map((key) => key.id);
  }
  const maintainer = target.as('maintainer');
  const keys = await collect(
    maintainer.paginate(() => maintainer.GET(LIST, { params: { path: { id }, query: { per_page: 100 } } })),
  );
  return keys.map((key) => key.id);
}

async function addedKeyId(id: string, title: string, key = newKey()): Promise<number> {
  const { data, response } = await addKey(id, title, key);
  expect(response.status).toBe(201);
  return data?.id ?? -1;
}

describe('adding a deploy key', () => {
  it('adds ed25519, RSA and ECDSA keys (201), read-only unless can_push', async () => {
    for (const type of ['ed25519', 'rsa', 'ecdsa'] as const) {
      const key = newKey(type);
      const { data, response } = await addKey(project, `${type} key`, key, type === 'rsa');
      expect(response.status).toBe(201);
      expect(data).toMatchObject({ title: `${type} key`, key, can_push: type === 'rsa' });
      expect(data?.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      // GitLab's fingerprints of the key blob, as OpenSSH prints them (MD5 in hex pairs, SHA256 in base64).
      const blob = Buffer.from(key.split(' ')[1] ?? '', 'base64');
      const md5 = createHash('md5').update(blob).digest('hex');
      expect(data?.fingerprint).toBe(md5.match(/../g)?.join(':'));
      expect(data?.fingerprint_sha256).toBe(
        `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`,
      );
    }
  });

  it('refuses a key that is not a valid SSH public key with 400 {"message": {"key": [...]}}', async () => {
    const ed = newKey().split(' ');
    const rsaBlob = newKey('rsa').split(' ')[1] ?? '';
    const invalid = [
      'not a key',
      `ssh-dss ${ed[1]}`,
      `ssh-rsa ${ed[1]}`,
      `ssh-ed25519 ${(ed[1] ?? '').slice(0, 40)}`,
      `ssh-ed25519 ${ed[1]}$$`,
      `ssh-ed25519 ${rsaBlob}`,
      '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----',
    ];
    for (const key of invalid) {
      const { response, error } = await addKey(project, 'bad', key);
      expect(response.status, key).toBe(400);
      expect(error?.message).toMatchObject({ key: expect.arrayContaining(['is invalid']) });
    }
  });

  it('refuses a missing or blank title and a missing key with 400', async () => {
    const client = target.as('maintainer');
    // @ts-expect-error title is required: the bad request is the point of the test
    const noTitle = await client.POST(LIST, { params: { path: { id: project } }, body: { key: newKey() } });
    expect(noTitle.response.status).toBe(400);
    expect(noTitle.error?.error).toMatch(/title/);
    // @ts-expect-error key is required
    const noKey = await client.POST(LIST, { params: { path: { id: project } }, body: { title: 'no key' } });
    expect(noKey.response.status).toBe(400);
    expect(noKey.error?.error).toMatch(/key/);
    const blank = await addKey(project, '   ', newKey());
    expect(blank.response.status).toBe(400);
    expect(blank.error?.message).toMatchObject({ title: [expect.any(String)] });
  });

  it('refuses the same key twice in one project (400), also with another comment', async () => {
    const key = newKey();
    expect((await addKey(project, 'once', key)).response.status).toBe(201);
    const again = await addKey(project, 'twice', key.replace('conformance@example.com', 'other comment'));
    expect(again.response.status).toBe(400);
    expect(JSON.stringify(again.error)).toMatch(/has already been taken/);
  });

  it('joins a key of another project the caller maintains, keeping its id and title', async () => {
    const key = newKey();
    const first = await addKey(project, 'shared key', key, true);
    const joined = await addKey(internalProject, 'another title', key);
    expect(joined.response.status).toBe(201);
    expect(joined.data).toMatchObject({ id: first.data?.id, title: 'shared key', can_push: false });
    const inFirst = await target
      .as('maintainer')
      .GET(ONE, { params: { path: { id: project, key_id: first.data?.id ?? -1 } } });
    expect(inFirst.data?.can_push).toBe(true);
  });

  it('takes form fields too', async () => {
    const key = newKey('ecdsa');
    const response = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/deploy_keys`,
      {
        method: 'POST',
        headers: {
          'PRIVATE-TOKEN': target.config.tokens.maintainer,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ title: 'form key', key, can_push: 'true' }),
      },
    );
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ title: 'form key', key, can_push: true });
  });

  it('needs a token (401), maintainer access (403), the api scope (403), and hides private projects (404)', async () => {
    const params = { path: { id: project } };
    const body = { title: 'denied', key: newKey() };
    expect((await target.as('anonymous').POST(LIST, { params, body })).response.status).toBe(401);
    expect((await target.as('revoked').POST(LIST, { params, body })).response.status).toBe(401);
    expect((await target.as('developer').POST(LIST, { params, body })).response.status).toBe(403);
    expect((await target.as('developerReadRepository').POST(LIST, { params, body })).response.status).toBe(
      403,
    );
    expect(
      (await target.as('outsider').POST(LIST, { params: { path: { id: privateProject } }, body })).response
        .status,
    ).toBe(404);
    expect(
      (
        await target.as('maintainer').POST(LIST, {
          params: { path: { id: `${target.config.fixtures.namespace}/no-such-project` } },
          body,
        })
      ).response.status,
    ).toBe(404);
  });
});

describe("listing and reading a project's keys", () => {
  it('lists the keys with can_push, paginated with the headers', async () => {
    const client = target.as('maintainer');
    // Keys other test files left on a shared server come first: the expectations are relative to them.
    const before = await keyIds(privateProject);
    const ids = [
      await addedKeyId(privateProject, 'p1'),
      await addedKeyId(privateProject, 'p2'),
      await addedKeyId(privateProject, 'p3'),
    ];
    const expected = [...before, ...ids];
    const all = await client.GET(LIST, {
      params: { path: { id: privateProject }, query: { per_page: 100 } },
    });
    expect(all.response.status).toBe(200);
    expect(all.data?.map((key) => key.id)).toEqual(expected.slice(0, 100));

    const page = await client.GET(LIST, {
      params: { path: { id: privateProject }, query: { per_page: 2, page: 1 } },
    });
    expect(page.data?.map((key) => key.id)).toEqual(expected.slice(0, 2));
    const headers = page.response.headers;
    expect(headers.get('X-Total')).toBe(String(expected.length));
    expect(headers.get('X-Total-Pages')).toBe(String(Math.ceil(expected.length / 2)));
    expect(headers.get('X-Per-Page')).toBe('2');
    expect(headers.get('X-Page')).toBe('1');
    expect(headers.get('X-Next-Page')).toBe('2');
    expect(headers.get('X-Prev-Page')).toBe('');
    expect(headers.get('Link')).toMatch(/page=2[^>]*>; rel="next"/);
    const collected = await collect(
      client.paginate(() =>
        client.GET(LIST, { params: { path: { id: privateProject }, query: { per_page: 2 } } }),
      ),
    );
    expect(collected.map((key) => key.id)).toEqual(expected);
    expect(collected.filter((key) => ids.includes(key.id)).map((key) => key.can_push)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('reads one key; a key not enabled for the project or unknown is 404', async () => {
    const id = await addedKeyId(project, 'readable');
    const client = target.as('maintainer');
    const one = await client.GET(ONE, { params: { path: { id: project, key_id: id } } });
    expect(one.response.status).toBe(200);
    expect(one.data).toMatchObject({ id, title: 'readable', can_push: false });
    expect(
      (await client.GET(ONE, { params: { path: { id: internalProject, key_id: id } } })).response.status,
    ).toBe(404);
    const unknown = await client.GET(ONE, { params: { path: { id: project, key_id: 999_999 } } });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error?.message).toMatch(/Deploy Key/);
  });

  it('needs a token (401), maintainer access (403), a read scope (403), and hides private projects (404)', async () => {
    const id = await addedKeyId(privateProject, 'guarded');
    const list = { path: { id: privateProject } };
    const one = { path: { id: privateProject, key_id: id } };
    expect((await target.as('anonymous').GET(LIST, { params: list })).response.status).toBe(401);
    expect((await target.as('anonymous').GET(ONE, { params: one })).response.status).toBe(401);
    expect((await target.as('developer').GET(LIST, { params: list })).response.status).toBe(403);
    expect((await target.as('developer').GET(ONE, { params: one })).response.status).toBe(403);
    expect((await target.as('developerReadRepository').GET(LIST, { params: list })).response.status).toBe(
      403,
    );
    expect((await target.as('outsider').GET(LIST, { params: list })).response.status).toBe(404);
    expect((await target.as('outsider').GET(ONE, { params: one })).response.status).toBe(404);
  });
});

describe('updating a key', () => {
  it("changes the title (the key's) and can_push (this project's)", async () => {
    const id = await addedKeyId(project, 'before');
    const client = target.as('maintainer');
    expect(
      (await client.POST(ENABLE, { params: { path: { id: internalProject, key_id: id } } })).response.status,
    ).toBe(201);
    const updated = await client.PUT(ONE, {
      params: { path: { id: project, key_id: id } },
      body: { title: 'after', can_push: true },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data).toMatchObject({ id, title: 'after', can_push: true });
    const elsewhere = await client.GET(ONE, { params: { path: { id: internalProject, key_id: id } } });
    expect(elsewhere.data).toMatchObject({ title: 'after', can_push: false });
    const onlyPush = await client.PUT(ONE, {
      params: { path: { id: project, key_id: id } },
      body: { can_push: false },
    });
    expect(onlyPush.data).toMatchObject({ title: 'after', can_push: false });
  });

  it('refuses an update without title or can_push, or with a blank title (400)', async () => {
    const id = await addedKeyId(project, 'stays');
    const client = target.as('maintainer');
    const params = { path: { id: project, key_id: id } };
    const empty = await client.PUT(ONE, { params, body: {} });
    expect(empty.response.status).toBe(400);
    expect(empty.error?.error).toMatch(/at least one/);
    expect((await client.PUT(ONE, { params })).response.status).toBe(400);
    expect((await client.PUT(ONE, { params, body: { title: '  ' } })).response.status).toBe(400);
    expect((await client.GET(ONE, { params })).data?.title).toBe('stays');
  });

  it('answers 401, 403 and 404', async () => {
    const id = await addedKeyId(project, 'locked');
    const body = { title: 'changed' };
    expect(
      (await target.as('anonymous').PUT(ONE, { params: { path: { id: project, key_id: id } }, body }))
        .response.status,
    ).toBe(401);
    expect(
      (await target.as('developer').PUT(ONE, { params: { path: { id: project, key_id: id } }, body }))
        .response.status,
    ).toBe(403);
    expect(
      (await target.as('maintainer').PUT(ONE, { params: { path: { id: project, key_id: 999_999 } }, body }))
        .response.status,
    ).toBe(404);
    expect(
      (
        await target
          .as('maintainer')
          .PUT(ONE, { params: { path: { id: internalProject, key_id: id } }, body })
      ).response.status,
    ).toBe(404);
  });
});

describe('enabling an existing key', () => {
  it('enables a key of another project read-only (201); enabling it again returns it (201)', async () => {
    const key = newKey('rsa');
    const first = await addKey(project, 'to enable', key, true);
    const id = first.data?.id ?? -1;
    const client = target.as('maintainer');
    const enabled = await client.POST(ENABLE, { params: { path: { id: privateProject, key_id: id } } });
    expect(enabled.response.status).toBe(201);
    expect(enabled.data).toMatchObject({ id, title: 'to enable', key, can_push: false });
    const again = await client.POST(ENABLE, { params: { path: { id: privateProject, key_id: id } } });
    expect(again.response.status).toBe(201);
    expect(again.data?.id).toBe(id);
    expect((await keyIds(privateProject)).filter((keyId) => keyId === id)).toHaveLength(1);
  });

  it('answers 404 for an unknown key, 403 below maintainer and 401 without a token', async () => {
    const id = await addedKeyId(project, 'not for everyone');
    expect(
      (
        await target
          .as('maintainer')
          .POST(ENABLE, { params: { path: { id: internalProject, key_id: 999_999 } } })
      ).response.status,
    ).toBe(404);
    expect(
      (await target.as('developer').POST(ENABLE, { params: { path: { id: internalProject, key_id: id } } }))
        .response.status,
    ).toBe(403);
    expect(
      (await target.as('anonymous').POST(ENABLE, { params: { path: { id: internalProject, key_id: id } } }))
        .response.status,
    ).toBe(401);
    expect(
      (await target.as('outsider').POST(ENABLE, { params: { path: { id: privateProject, key_id: id } } }))
        .response.status,
    ).toBe(404);
  });
});

describe('deleting a key', () => {
  it('removes the key from the project; the last removal deletes it from the instance', async () => {
    const id = await addedKeyId(project, 'two projects');
    const client = target.as('maintainer');
    await client.POST(ENABLE, { params: { path: { id: internalProject, key_id: id } } });
    const removed = await client.DELETE(ONE, { params: { path: { id: project, key_id: id } } });
    expect(removed.response.status).toBe(204);
    expect((await client.GET(ONE, { params: { path: { id: project, key_id: id } } })).response.status).toBe(
      404,
    );
    expect(
      (await client.GET(ONE, { params: { path: { id: internalProject, key_id: id } } })).response.status,
    ).toBe(200);
    expect(await keyIds()).toContain(id);

    expect(
      (await client.DELETE(ONE, { params: { path: { id: internalProject, key_id: id } } })).response.status,
    ).toBe(204);
    expect(await keyIds()).not.toContain(id);
    // Gone from the instance: it cannot be enabled any more.
    expect(
      (await client.POST(ENABLE, { params: { path: { id: project, key_id: id } } })).response.status,
    ).toBe(404);
  });

  it('lets the same key be added again after it was deleted', async () => {
    const key = newKey();
    const id = (await addKey(project, 'again', key)).data?.id ?? -1;
    expect(
      (await target.as('maintainer').DELETE(ONE, { params: { path: { id: project, key_id: id } } })).response
        .status,
    ).toBe(204);
    expect((await addKey(project, 'again', key)).response.status).toBe(201);
  });

  it('answers 404 for a key not enabled here, 403 below maintainer and 401 without a token', async () => {
    const id = await addedKeyId(project, 'kept');
    expect(
      (await target.as('maintainer').DELETE(ONE, { params: { path: { id: internalProject, key_id: id } } }))
        .response.status,
    ).toBe(404);
    expect(
      (await target.as('developer').DELETE(ONE, { params: { path: { id: project, key_id: id } } })).response
        .status,
    ).toBe(403);
    expect(
      (await target.as('anonymous').DELETE(ONE, { params: { path: { id: project, key_id: id } } })).response
        .status,
    ).toBe(401);
    expect(
      (await target.as('maintainer').GET(ONE, { params: { path: { id: project, key_id: id } } })).response
        .status,
    ).toBe(200);
  });
});

describe('the instance-wide list', () => {
  it('lists every key once, without can_push, paginated, for administrators', async () => {
    const key = newKey();
    const id = (await addKey(project, 'instance', key, true)).data?.id ?? -1;
    await target.as('maintainer').POST(ENABLE, { params: { path: { id: privateProject, key_id: id } } });
    const client = target.as('admin');
    const first = await client.GET(ALL, { params: { query: { per_page: 2 } } });
    expect(first.response.status).toBe(200);
    expect(first.data).toHaveLength(2);
    const total = Number(first.response.headers.get('X-Total'));
    expect(total).toBeGreaterThan(2);
    expect(first.response.headers.get('X-Total-Pages')).toBe(String(Math.ceil(total / 2)));
    expect(first.response.headers.get('X-Per-Page')).toBe('2');
    expect(first.response.headers.get('X-Page')).toBe('1');
    expect(first.response.headers.get('X-Next-Page')).toBe('2');
    expect(first.response.headers.get('X-Prev-Page')).toBe('');
    expect(first.response.headers.get('Link')).toMatch(/rel="next"/);
    const all = await collect(client.paginate(() => client.GET(ALL, { params: { query: { per_page: 2 } } })));
    expect(all).toHaveLength(total);
    const mine = all.filter((item) => item.id === id);
    expect(mine).toEqual([
      {
        id,
        title: 'instance',
        key,
        fingerprint: expect.stringMatching(/^[0-9a-f]{2}(:[0-9a-f]{2}){15}$/),
        fingerprint_sha256: expect.stringMatching(/^SHA256:/),
        created_at: expect.any(String),
      },
    ]);
    expect(all.every((item) => !('can_push' in item))).toBe(true);
  });

  it('is refused to non-administrators (403) and without a valid token (401)', async () => {
    expect((await target.as('maintainer').GET(ALL)).response.status).toBe(403);
    expect((await target.as('owner').GET(ALL)).response.status).toBe(403);
    expect((await target.as('anonymous').GET(ALL)).response.status).toBe(401);
    expect((await target.as('revoked').GET(ALL)).response.status).toBe(401);
  });
});
