// Feature flags (administrators only): list, set boolean, percentage and actor gates, delete.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, openTarget, type Role, RUN, type Target } from '../src/index.js';

let target: Target;

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target.close();
});

const LIST = '/features' as const;
const ONE = '/features/{name}' as const;

/** The features this file creates, new on every run (a feature is never removed unless deleted). */
const NEW_LIBRARY = `new_library_${RUN}`;
const GRADUAL = `gradual_${RUN}`;
const ALWAYS = `always_${RUN}`;
const FULLY_ON = `fully_on_${RUN}`;
const FOR_SOME = `for_some_${RUN}`;
const FROM_FORM = `from_form_${RUN}`;
const LIST_A = `list_a_${RUN}`;
const LIST_B = `list_b_${RUN}`;
const LIST_C = `list_c_${RUN}`;
const DOOMED = `doomed_${RUN}`;
const KEPT = `kept_${RUN}`;

type SetBody = components['schemas']['SetFeatureGateRequest'];
type Feature = components['schemas']['Feature'];

async function setGate(name: string, body: SetBody, role: Role | 'anonymous' = 'admin') {
  return target.as(role).POST(ONE, { params: { path: { name } }, body });
}

/** Every feature, all pages: features stay until deleted, so runs against one server add up. */
async function allFeatures() {
  const client = target.as('admin');
  return collect(client.paginate(() => client.GET(LIST, { params: { query: { per_page: 100 } } })));
}

async function featureNames(): Promise<string[]> {
  return (await allFeatures()).map((feature) => feature.name);
}

async function setOk(name: string, body: SetBody) {
  const { data, response, error } = await setGate(name, body);
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data;
}

describe('POST /features/:name', () => {
  it('creates a feature and switches it on and off for everyone', async () => {
    expect(await setOk(NEW_LIBRARY, { value: true })).toEqual({
      name: NEW_LIBRARY,
      state: 'on',
      gates: [{ key: 'boolean', value: true }],
    });
    expect(await setOk(NEW_LIBRARY, { value: false })).toEqual({
      name: NEW_LIBRARY,
      state: 'off',
      gates: [{ key: 'boolean', value: false }],
    });
  });

  it('sets a percentage of time (the default key) or of actors: state conditional', async () => {
    expect(await setOk(GRADUAL, { value: 30 })).toEqual({
      name: GRADUAL,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 30 },
      ],
    });
    expect(await setOk(GRADUAL, { value: 34, key: 'percentage_of_actors' })).toEqual({
      name: GRADUAL,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_actors', value: 34 },
        { key: 'percentage_of_time', value: 30 },
      ],
    });
    // A percentage of 0 removes that gate; switching the feature on for everyone clears the others.
    expect((await setOk(GRADUAL, { value: 0 }))?.gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'percentage_of_actors', value: 34 },
    ]);
    expect(await setOk(GRADUAL, { value: true })).toEqual({
      name: GRADUAL,
      state: 'on',
      gates: [{ key: 'boolean', value: true }],
    });
  });

  it('leaves a feature that was on for everyone conditional on a percentage set afterwards', async () => {
    await setOk(FULLY_ON, { value: true });
    expect(await setOk(FULLY_ON, { value: 25 })).toEqual({
      name: FULLY_ON,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 25 },
      ],
    });
    await setOk(FULLY_ON, { value: true });
    expect(await setOk(FULLY_ON, { value: 40, key: 'percentage_of_actors' })).toEqual({
      name: FULLY_ON,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_actors', value: 40 },
      ],
    });
  });

  it('treats 100 percent of the time as on', async () => {
    expect((await setOk(ALWAYS, { value: 100 }))?.state).toBe('on');
  });

  it('enables and disables for users, groups, projects and feature groups, combined in one call', async () => {
    const { users, namespace, publicProject } = target.config.fixtures;
    const twoUsers = `${users.developer.username},${users.reporter.username}`;
    const combined = await setOk(FOR_SOME, {
      value: true,
      user: twoUsers,
      project: publicProject,
    });
    expect(combined?.state).toBe('conditional');
    expect(combined?.gates[0]).toEqual({ key: 'boolean', value: false });
    const actors = combined?.gates.find((gate) => gate.key === 'actors')?.value as string[];
    expect(actors).toHaveLength(3);
    expect(actors.filter((actor) => /^User:\d+$/.test(actor))).toHaveLength(2);
    expect(actors.filter((actor) => /^Project:\d+$/.test(actor))).toHaveLength(1);

    const withGroup = await setOk(FOR_SOME, { value: true, group: namespace, feature_group: 'admins' });
    expect(withGroup?.gates.find((gate) => gate.key === 'actors')?.value).toHaveLength(4);
    expect(withGroup?.gates.find((gate) => gate.key === 'groups')).toEqual({
      key: 'groups',
      value: ['admins'],
    });

    const fewer = await setOk(FOR_SOME, {
      value: false,
      user: twoUsers,
      group: namespace,
      feature_group: 'admins',
    });
    expect(fewer?.gates.find((gate) => gate.key === 'actors')?.value).toEqual(
      actors.filter((actor) => actor.startsWith('Project:')),
    );
    expect(fewer?.gates.find((gate) => gate.key === 'groups')).toBeUndefined();
    const none = await setOk(FOR_SOME, { value: false, project: publicProject });
    expect(none).toEqual({ name: FOR_SOME, state: 'off', gates: [{ key: 'boolean', value: false }] });
  });

  it('takes form fields and query parameters too', async () => {
    const url = `${target.config.baseUrl}/api/v4/features/${FROM_FORM}`;
    const headers = { 'PRIVATE-TOKEN': target.config.tokens.admin };
    const form = await target.fetch(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'value=true',
    });
    expect(form.status).toBe(201);
    expect(((await form.json()) as Feature).state).toBe('on');
    const query = await target.fetch(`${url}?value=25&key=percentage_of_actors`, { method: 'POST', headers });
    expect(query.status).toBe(201);
    expect(((await query.json()) as Feature).gates).toContainEqual({
      key: 'percentage_of_actors',
      value: 25,
    });
  });

  it('answers 400 for a bad value, unknown actors, a percentage for actors and a bad name', async () => {
    const { users, namespace } = target.config.fixtures;
    const bad: [string, SetBody][] = [
      ['bad_value', { value: 150 }],
      ['bad_value', { value: '101' }],
      ['bad_value', { value: 'maybe' }],
      ['bad_value', { value: -5 }],
      ['bad_actor', { value: true, user: 'nobody' }],
      ['bad_actor', { value: true, group: 'no-such-group' }],
      ['bad_actor', { value: true, project: `${namespace}/no-such-project` }],
      ['bad_actor', { value: true, feature_group: 'no_such_feature_group' }],
      ['bad_mix', { value: 50, user: users.developer.username }],
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
    const names = await featureNames();
    expect(names).not.toContain('bad_value');
    expect(names).not.toContain('bad_actor');
    expect(names).not.toContain('bad_mix');
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
    await setOk(LIST_A, { value: true });
    await setOk(LIST_B, { value: 10 });
    // A third, so that page 2 of 1 per page has a next page whatever else exists.
    await setOk(LIST_C, { value: false });
    const { data, response } = await target.as('admin').GET(LIST, { params: { query: { per_page: 100 } } });
    expect(response.status).toBe(200);
    // Sorted by name across all pages (earlier runs against the same server may have left more than 100).
    const all = await allFeatures();
    const names = all.map((feature) => feature.name);
    expect(names).toEqual([...names].sort());
    expect(data?.map((feature) => feature.name)).toEqual(names.slice(0, 100));
    expect(all).toContainEqual({ name: LIST_A, state: 'on', gates: [{ key: 'boolean', value: true }] });
    expect(all).toContainEqual({
      name: LIST_B,
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
    await setOk(DOOMED, { value: true });
    const deleted = await target.as('admin').DELETE(ONE, { params: { path: { name: DOOMED } } });
    expect(deleted.response.status).toBe(204);
    expect(await deleted.response.text()).toBe('');
    expect(await featureNames()).not.toContain(DOOMED);
    expect(
      (await target.as('admin').DELETE(ONE, { params: { path: { name: DOOMED } } })).response.status,
    ).toBe(204);
    expect(
      (await target.as('admin').DELETE(ONE, { params: { path: { name: 'never_existed' } } })).response.status,
    ).toBe(204);
  });

  it('is for administrators only', async () => {
    await setOk(KEPT, { value: true });
    const params = { path: { name: KEPT } };
    expect((await target.as('anonymous').DELETE(ONE, { params })).response.status).toBe(401);
    expect((await target.as('maintainer').DELETE(ONE, { params })).response.status).toBe(403);
    expect(await featureNames()).toContain(KEPT);
  });
});
