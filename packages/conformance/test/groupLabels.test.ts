// Group labels (document 2, section 4.8): list with counts and ancestors, read by ID or title, create with
// hex or CSS colour names, update (at least one field), delete, subscribe and unsubscribe (304 when already
// so), the deprecated PUT/DELETE by name, and who may do what.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

let target: Target;
let group: string;
let subgroup: string;

beforeAll(async () => {
  target = await openTarget();
  group = target.config.fixtures.namespace;
  subgroup = target.config.fixtures.hiddenGroup;
});
afterAll(async () => {
  await target.close();
});

type Label = components['schemas']['GroupLabel'];
type Issue = components['schemas']['Issue'];

const enc = encodeURIComponent;
const labels = (g: string, rest = '') => `/groups/${enc(g)}/labels${rest}`;
const send = (
  caller: Caller,
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  json?: Record<string, unknown>,
) => callAs<Label>(target, caller, path, { method, json });

async function create(name: string, color = '#1F75CB', g = group): Promise<Label> {
  const { status, body } = await send('reporter', 'POST', labels(g), {
    name,
    color,
    description: 'A <b>label</b>',
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

async function listAll(caller: Caller, g: string, query: Record<string, string> = {}): Promise<Label[]> {
  const { status, body } = await callAs<Label[]>(target, caller, labels(g), {
    query: { per_page: '100', ...query },
  });
  expect(status).toBe(200);
  return body;
}

describe('creating and reading', () => {
  it('creates a label with a hex colour and with a CSS colour name (stored as hex)', async () => {
    const hex = await create(`hex-${RUN}`, '#FFAABB');
    expect(hex).toMatchObject({
      name: `hex-${RUN}`,
      color: '#FFAABB',
      text_color: '#333333',
      subscribed: false,
    });
    expect(hex.description_html).toBe('A &lt;b&gt;label&lt;/b&gt;');
    const named = await create(`named-${RUN}`, 'navy');
    expect(named.color).toBe('#000080');
    expect(named.text_color).toBe('#FFFFFF');
  });

  it('refuses a bad colour, a comma, a blank name (400) and a duplicate (409)', async () => {
    expect(
      (await send('reporter', 'POST', labels(group), { name: `c-${RUN}`, color: 'notacolor' })).status,
    ).toBe(400);
    expect(
      (await send('reporter', 'POST', labels(group), { name: `c-${RUN}`, color: '#12345' })).status,
    ).toBe(400);
    expect((await send('reporter', 'POST', labels(group), { name: `a,b-${RUN}`, color: 'red' })).status).toBe(
      400,
    );
    expect((await send('reporter', 'POST', labels(group), { name: '   ', color: 'red' })).status).toBe(400);
    expect((await send('reporter', 'POST', labels(group), { color: 'red' })).status).toBe(400);
    await create(`dup-${RUN}`);
    expect((await send('reporter', 'POST', labels(group), { name: `dup-${RUN}`, color: 'red' })).status).toBe(
      409,
    );
    // An ancestor's label of that name is a conflict in the subgroup too.
    expect(
      (await send('maintainer', 'POST', labels(subgroup), { name: `dup-${RUN}`, color: 'red' })).status,
    ).toBe(409);
  });

  it("reads a label by ID and by title, and lists the ancestors' labels unless told not to", async () => {
    const label = await create(`read-${RUN}`);
    expect((await callAs<Label>(target, 'guest', labels(group, `/${label.id}`))).body.name).toBe(label.name);
    expect((await callAs<Label>(target, 'guest', labels(group, `/${enc(label.name)}`))).body.id).toBe(
      label.id,
    );
    expect((await callAs(target, 'guest', labels(group, `/no-such-label-${RUN}`))).status).toBe(404);
    const own = await create(`sub-${RUN}`, 'teal', subgroup);
    const withAncestors = await listAll('maintainer', subgroup);
    expect(withAncestors.map((item) => item.id)).toEqual(expect.arrayContaining([label.id, own.id]));
    const ownOnly = await listAll('maintainer', subgroup, { include_ancestor_groups: 'false' });
    expect(ownOnly.map((item) => item.id)).toContain(own.id);
    expect(ownOnly.map((item) => item.id)).not.toContain(label.id);
    expect((await callAs(target, 'maintainer', labels(subgroup, `/${label.id}`))).status).toBe(200);
    const query = { include_ancestor_groups: 'false' };
    expect((await callAs(target, 'maintainer', labels(subgroup, `/${label.id}`), { query })).status).toBe(
      404,
    );
    expect(withAncestors[0]).not.toHaveProperty('open_issues_count');
  });

  it('counts the open and closed issues and open merge requests that carry the label', async () => {
    const label = await create(`counted-${RUN}`);
    const project = enc(target.config.fixtures.publicProject);
    for (const state of ['open', 'open', 'closed']) {
      const made = await callAs<Issue>(target, 'maintainer', `/projects/${project}/issues`, {
        method: 'POST',
        json: { title: `Counted ${RUN}`, labels: label.name },
      });
      expect(made.status).toBe(201);
      if (state === 'closed') {
        const closed = await callAs(target, 'maintainer', `/projects/${project}/issues/${made.body.iid}`, {
          method: 'PUT',
          json: { state_event: 'close' },
        });
        expect(closed.status).toBe(200);
      }
    }
    const listed = (await listAll('developer', group, { with_counts: 'true' })).find(
      (item) => item.id === label.id,
    );
    expect(listed).toMatchObject({
      open_issues_count: 2,
      closed_issues_count: 1,
      open_merge_requests_count: 0,
    });
  });

  it('pages the list', async () => {
    const { status, body, headers } = await callAs<Label[]>(target, 'guest', labels(group), {
      query: { per_page: '1' },
    });
    expect(status).toBe(200);
    expect(body).toHaveLength(1);
    expect(Number(headers.get('x-total'))).toBeGreaterThanOrEqual(2);
  });
});

describe('updating and deleting', () => {
  it('updates the name, colour and description; needs at least one (400)', async () => {
    const label = await create(`upd-${RUN}`);
    const updated = await send('reporter', 'PUT', labels(group, `/${label.id}`), {
      new_name: `upd2-${RUN}`,
      color: 'white',
      description: 'changed',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: `upd2-${RUN}`, color: '#FFFFFF', description: 'changed' });
    expect((await send('reporter', 'PUT', labels(group, `/${label.id}`), {})).status).toBe(400);
    const other = await create(`taken-${RUN}`);
    expect(
      (await send('reporter', 'PUT', labels(group, `/${label.id}`), { new_name: other.name })).status,
    ).toBe(400);
    const byName = await send('reporter', 'PUT', labels(group), {
      name: `upd2-${RUN}`,
      description: 'by name',
    });
    expect(byName.status).toBe(200);
    expect(byName.body.description).toBe('by name');
  });

  it('deletes by ID or title, and by name in the deprecated form (204)', async () => {
    const first = await create(`del-${RUN}`);
    expect((await send('reporter', 'DELETE', labels(group, `/${first.id}`))).status).toBe(204);
    expect((await callAs(target, 'reporter', labels(group, `/${first.id}`))).status).toBe(404);
    const second = await create(`del2-${RUN}`);
    expect((await send('reporter', 'DELETE', labels(group), { name: second.name })).status).toBe(204);
    expect((await send('reporter', 'DELETE', labels(group), { name: second.name })).status).toBe(404);
  });

  it("changes an ancestor's label only through the ancestor (404 in the subgroup)", async () => {
    const label = await create(`anc-${RUN}`);
    expect((await send('maintainer', 'PUT', labels(subgroup, `/${label.id}`), { color: 'red' })).status).toBe(
      404,
    );
    expect((await send('maintainer', 'DELETE', labels(subgroup, `/${label.id}`))).status).toBe(404);
  });
});

describe('subscriptions', () => {
  it('subscribes and unsubscribes the caller, 304 when already so', async () => {
    const label = await create(`sub-${RUN}-s`);
    const on = await send('guest', 'POST', labels(group, `/${label.id}/subscribe`));
    expect(on.status).toBe(201);
    expect(on.body.subscribed).toBe(true);
    expect((await send('guest', 'POST', labels(group, `/${label.id}/subscribe`))).status).toBe(304);
    expect((await callAs<Label>(target, 'guest', labels(group, `/${label.id}`))).body.subscribed).toBe(true);
    expect((await callAs<Label>(target, 'developer', labels(group, `/${label.id}`))).body.subscribed).toBe(
      false,
    );
    const off = await send('guest', 'POST', labels(group, `/${enc(label.name)}/unsubscribe`));
    expect(off.status).toBe(201);
    expect(off.body.subscribed).toBe(false);
    expect((await send('guest', 'POST', labels(group, `/${label.id}/unsubscribe`))).status).toBe(304);
  });
});

describe('who may call', () => {
  it('answers 401 without a valid token', async () => {
    for (const caller of ['anonymous', 'invalid', 'revoked'] as const) {
      expect((await callAs(target, caller, labels(group))).status, caller).toBe(401);
      expect(
        (await send(caller, 'POST', labels(group), { name: `x-${RUN}`, color: 'red' })).status,
        caller,
      ).toBe(401);
    }
  });

  it('lets reporters and above write (guests and outsiders 403) and hides private groups (404)', async () => {
    expect((await send('guest', 'POST', labels(group), { name: `g-${RUN}`, color: 'red' })).status).toBe(403);
    expect((await send('outsider', 'POST', labels(group), { name: `o-${RUN}`, color: 'red' })).status).toBe(
      403,
    );
    const label = await create(`perm-${RUN}`);
    expect((await send('guest', 'PUT', labels(group, `/${label.id}`), { color: 'red' })).status).toBe(403);
    expect((await send('guest', 'DELETE', labels(group, `/${label.id}`))).status).toBe(403);
    expect((await callAs(target, 'outsider', labels(group))).status).toBe(200);
    expect((await callAs(target, 'outsider', labels(subgroup))).status).toBe(404);
    expect(
      (await send('outsider', 'POST', labels(subgroup), { name: `o-${RUN}`, color: 'red' })).status,
    ).toBe(404);
    expect((await callAs(target, 'developer', labels(`no-such-group-${RUN}`))).status).toBe(404);
    expect((await callAs(target, 'developerReadRepository', labels(group))).status).toBe(403);
  });
});
