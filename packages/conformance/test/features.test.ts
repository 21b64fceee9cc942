// Feature flags (administrators only): list, set boolean, percentage and actor gates, delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Role, type Target } from '../src/index.js';

let target: Target;

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target.close();
});

const LIST = '/features' as const;
const ONE = '/features/{name}' as const;

type SetBody = {
  value: boolean | number | string;
  key?: 'percentage_of_time' | 'percentage_of_actors';
  feature_group?: string;
  user?: string;
  group?: string;
  project?: string;
};

async function setGate(name: string, body: SetBody, role: Role | 'anonymous' = 'admin') {
  return target.as(role).POST(ONE, { params: { path: { name } }, body });
}

async function setOk(name: string, body: SetBody) {
  const { data, response, error } = await setGate(name, body);
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data;
}

describe('POST /features/:name', () => {
  it('creates a feature and switches it on and off for everyone', async () => {
    expect(await setOk('new_library', { value: true })).toEqual({
      name: 'new_library',
      state: 'on',
      gates: [{ key: 'boolean', value: true }],
    });
    expect(await setOk('new_library', { value: false })).toEqual({
      name: 'new_library',
      state: 'off',
      gates: [{ key: 'boolean', value: false }],
    });
  });

  it('sets a percentage of time (the default key) or of actors: state conditional', async () => {
    expect(await setOk('gradual', { value: 30 })).toEqual({
      name: 'gradual',
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 30 },
      ],
    });
    expect(await setOk('gradual', { value: 34, key: 'percentage_of_actors' })).toEqual({
      name: 'gradual',
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_actors', value: 34 },
        { key: 'percentage_of_time', value: 30 },
      ],
    });
    // A percentage of 0 removes that gate; switching the feature on for everyone clears the others.
    expect((await setOk('gradual', { value: 0 }))?.gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'percentage_of_actors', value: 34 },
    ]);
    expect(await setOk('gradual', { value: true })).toEqual({
      name: 'gradual',
      state: 'on',
      gates: [{ key: 'boolean', value: true }],
    });
  });

  it('treats 100 percent of the time as on', async () => {
    expect((await setOk('always', { value: 100 }))?.state).toBe('on');
  });

  it('enables and disables for users, groups, projects and feature groups, combined in one call', async () => {
    const combined = await setOk('for_some', {
      value: true,
      user: 'developer,reporter',
      project: target.config.fixtures.publicProject,
    });
    expect(combined?.state).toBe('conditional');
    expect(combined?.gates[0]).toEqual({ key: 'boolean', value: false });
    const actors = combined?.gates.find((gate) => gate.key === 'actors')?.value as string[];
    expect(actors).toHaveLength(3);
    expect(actors.filter((actor) => /^User:\d+$/.test(actor))).toHaveLength(2);
    expect(actors.filter((actor) => /^Project:\d+$/.test(actor))).toHaveLength(1);

    const withGroup = await setOk('for_some', { value: true, group: 'acme', feature_group: 'admins' });
    expect(withGroup?.gates.find((gate) => gate.key === 'actors')?.value).toHaveLength(4);
    expect(withGroup?.gates.find((gate) => gate.key === 'groups')).toEqual({
      key: 'groups',
      value: ['admins'],
    });

    const fewer = await setOk('for_some', {
      value: false,
      user: 'developer,reporter',
      group: 'acme',
      feature_group: 'admins',
    });
    expect(fewer?.gates.find((gate) => gate.key === 'actors')?.value).toEqual(
      actors.filter((actor) => actor.startsWith('Project:')),
    );
    expect(fewer?.gates.find((gate) => gate.key === 'groups')).toBeUndefined();
    const none = await setOk('for_some', { value: false, project: target.config.fixtures.publicProject });
    expect(none).toEqual({ name: 'for_some', state: 'off', gates: [{ key: 'boolean', value: false }] });
  });

  it('takes form fields and query parameters too', async () => {
    const url = `${target.config.baseUrl}/api/v4/features/from_form`;
    const headers = { 'PRIVATE-TOKEN': target.config.tokens.admin };
    const form = await target.fetch(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'value=true',
    });
    expect(form.status).toBe(201);
    expect(((await form.json()) as { state: string }).state).toBe('on');
    const query = await target.fetch(`${url}?value=25&key=percentage_of_actors`, { method: 'POST', headers });
    expect(query.status).toBe(201);
    expect(((await query.json()) as { gates: unknown[] }).gates).toContainEqual({
      key: 'percentage_of_actors',
      value: 25,
    });
  });

  it('answers 400 for a bad value, unknown actors, a percentage for actors and a bad name', async () => {
    const bad: [string, SetBody][] = [
      ['bad_value', { value: 150 }],
      ['bad_value', { value: '101' }],
      ['bad_value', { value: 'maybe' }],
      ['bad_value', { value: -5 }],
      ['bad_actor', { value: true, user: 'nobody' }],
      ['bad_actor', { value: true, group: 'no-such-group' }],
      ['bad_actor', { value: true, project: 'acme/no-such-project' }],
      ['bad_actor', { value: true, feature_group: 'no_such_feature_group' }],
      ['bad_mix', { value: 50, user: 'developer' }],
      ['bad name!', { value: true }],
    ];
    for (const [name, body] of bad) {
      const { response, error } = await setGate(name, body);
      expect(response.status, `${name} ${JSON.stringify(body)}`).toBe(400);
      expect(error).toBeDefined();
    }
    const missing = await target.fetch(`${target.config.baseUrl}/api/v4/features/no_value`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': target.config.tokens.admin, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: expect.stringMatching(/value/) });
    // Nothing half-written: the refused calls created no feature.
    const { data } = await target.as('admin').GET(LIST, { params: { query: { per_page: 100 } } });
    expect(data?.map((feature) => feature.name)).not.toContain('bad_value');
    expect(data?.map((feature) => feature.name)).not.toContain('bad_actor');
    expect(data?.map((feature) => feature.name)).not.toContain('bad_mix');
  });

  it('is for administrators only: 401 without a valid token, 403 otherwise', async () => {
    expect((await setGate('secret', { value: true }, 'anonymous')).response.status).toBe(401);
    expect((await setGate('secret', { value: true }, 'revoked')).response.status).toBe(401);
    for (const role of ['owner', 'maintainer', 'developer', 'outsider'] as const) {
      expect((await setGate('secret', { value: true }, role)).response.status).toBe(403);
    }
  });
});

describe('GET /features', () => {
  it('lists every feature by name with its gates, paginated', async () => {
    await setOk('list_a', { value: true });
    await setOk('list_b', { value: 10 });
    // A third, so that page 2 of 1 per page has a next page whatever else exists.
    await setOk('list_c', { value: false });
    const { data, response } = await target.as('admin').GET(LIST, { params: { query: { per_page: 100 } } });
    expect(response.status).toBe(200);
    const names = data?.map((feature) => feature.name) ?? [];
    expect(names).toEqual([...names].sort());
    expect(data).toContainEqual({ name: 'list_a', state: 'on', gates: [{ key: 'boolean', value: true }] });
    expect(data).toContainEqual({
      name: 'list_b',
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 10 },
      ],
    });

    const page = await target.as('admin').GET(LIST, { params: { query: { per_page: 1, page: 2 } } });
    expect(page.data?.map((feature) => feature.name)).toEqual([names[1]]);
    expect(page.response.headers.get('X-Total')).toBe(String(names.length));
    expect(page.response.headers.get('X-Total-Pages')).toBe(String(names.length));
    expect(page.response.headers.get('X-Per-Page')).toBe('1');
    expect(page.response.headers.get('X-Page')).toBe('2');
    expect(page.response.headers.get('X-Prev-Page')).toBe('1');
    expect(page.response.headers.get('X-Next-Page')).toBe('3');
    expect(page.response.headers.get('Link')).toContain('rel="next"');
  });

  it('is for administrators only', async () => {
    expect((await target.as('anonymous').GET(LIST, {})).response.status).toBe(401);
    expect((await target.as('revoked').GET(LIST, {})).response.status).toBe(401);
    expect((await target.as('developer').GET(LIST, {})).response.status).toBe(403);
    expect((await target.as('maintainer').GET(LIST, {})).response.status).toBe(403);
  });
});

describe('DELETE /features/:name', () => {
  it('removes the feature (204), and answers the same when it does not exist', async () => {
    await setOk('doomed', { value: true });
    const deleted = await target.as('admin').DELETE(ONE, { params: { path: { name: 'doomed' } } });
    expect(deleted.response.status).toBe(204);
    expect(await deleted.response.text()).toBe('');
    const { data } = await target.as('admin').GET(LIST, { params: { query: { per_page: 100 } } });
    expect(data?.map((feature) => feature.name)).not.toContain('doomed');
    expect(
      (await target.as('admin').DELETE(ONE, { params: { path: { name: 'doomed' } } })).response.status,
    ).toBe(204);
    expect(
      (await target.as('admin').DELETE(ONE, { params: { path: { name: 'never_existed' } } })).response.status,
    ).toBe(204);
  });

  it('is for administrators only', async () => {
    await setOk('kept', { value: true });
    const params = { path: { name: 'kept' } };
    expect((await target.as('anonymous').DELETE(ONE, { params })).response.status).toBe(401);
    expect((await target.as('maintainer').DELETE(ONE, { params })).response.status).toBe(403);
    const { data } = await target.as('admin').GET(LIST, { params: { query: { per_page: 100 } } });
    expect(data?.map((feature) => feature.name)).toContain('kept');
  });
});
