// Epics of groups (document 2, 4.7; higher tier): list with every filter, read, create, update (state
// events, labels, fixed dates), delete, the epic to-do, child epics across the group hierarchy, confidential
// epics, and the 401/403/404 matrix of every role. The server under test runs the higher tier. Every epic
// the file makes carries RUN in its title, and the lists are searched for it, so a shared server's other
// epics (and a second run's) do not disturb it.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureUser, openTarget, type Role, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

let target: Target;
/** The public group (URL-encoded): the roles' access levels hold here. */
let group: string;
let groupPath: string;
/** A private subgroup of `group` (URL-encoded) the outsider cannot see. */
let hidden: string;
let hiddenPath: string;
let users: Record<Exclude<Role, 'developerReadRepository' | 'revoked'>, FixtureUser>;

type EpicLabel = components['schemas']['EpicLabelDetails'];
type Epic = components['schemas']['Epic'];
type Todo = components['schemas']['Todo'];
type CreateEpicBody = components['schemas']['CreateEpicRequest'];

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = <T = unknown>(
  caller: Caller,
  method: Method,
  path: string,
  options: {
    query?: Record<string, string> | string;
    json?: Record<string, unknown>;
    form?: Record<string, string>;
  } = {},
) => callAs<T>(target, caller, path, { method, ...options });

const epicsOf = (groupId: string) => `/groups/${groupId}/epics`;
const epicOf = (groupId: string, iid: number) => `/groups/${groupId}/epics/${iid}`;

let counter = 0;
/** A title unique to this run and call. */
const title = (what: string) => `${what} ${RUN}-${++counter}`;

async function createEpic(
  groupId: string,
  fields: Partial<CreateEpicBody>,
  caller: Caller = 'reporter',
): Promise<Epic> {
  const answer = await call<Epic>(caller, 'POST', epicsOf(groupId), {
    json: { title: title('Epic'), ...fields },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

/** This run's epics of a list (searched by RUN). */
async function listRun(caller: Caller, groupId: string, query: Record<string, string> = {}): Promise<Epic[]> {
  const answer = await call<Epic[]>(caller, 'GET', epicsOf(groupId), {
    query: { search: RUN, per_page: '100', ...query },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const EDIT_FIELDS = [
  'start_date_is_fixed',
  'start_date_fixed',
  'start_date_from_inherited_source',
  'start_date_from_milestones',
  'due_date_is_fixed',
  'due_date_fixed',
  'due_date_from_inherited_source',
  'due_date_from_milestones',
] as const;

/** Epics made once for the reads and lists. */
let first: Epic;
let second: Epic;
let closed: Epic;
let sub: Epic;

beforeAll(async () => {
  target = await openTarget();
  const { fixtures } = target.config;
  groupPath = fixtures.namespace;
  hiddenPath = fixtures.hiddenGroup;
  group = encodeURIComponent(groupPath);
  hidden = encodeURIComponent(hiddenPath);
  users = fixtures.users;
  first = await createEpic(group, {
    description: `The first ${RUN}`,
    labels: `alpha-${RUN},beta-${RUN}`,
    start_date_is_fixed: true,
    start_date_fixed: '2026-02-01',
  });
  second = await createEpic(group, { labels: `beta-${RUN}` }, 'owner');
  closed = await createEpic(group, {}, 'maintainer');
  const closing = await call<Epic>('maintainer', 'PUT', epicOf(group, closed.iid), {
    json: { state_event: 'close' },
  });
  expect(closing.status).toBe(200);
  closed = closing.body;
  sub = await createEpic(hidden, {
    parent_id: first.id,
    due_date_is_fixed: true,
    due_date_fixed: '2026-06-30',
  });
}, 60_000);
afterAll(async () => {
  await target.close();
});

describe('POST /groups/:id/epics', () => {
  it('creates an epic with a per-group iid, the caller as author, labels and fixed dates (201)', () => {
    expect(first.title).toContain(RUN);
    expect(first.state).toBe('opened');
    expect(first.confidential).toBe(false);
    expect(first.author.id).toBe(users.reporter.id);
    expect(first.labels).toEqual([`alpha-${RUN}`, `beta-${RUN}`]);
    expect(first.start_date_is_fixed).toBe(true);
    expect(first.start_date_fixed).toBe('2026-02-01');
    expect(first.start_date).toBe('2026-02-01');
    expect(first.reference).toBe(`&${first.iid}`);
    expect(first.references).toEqual({
      short: `&${first.iid}`,
      relative: `&${first.iid}`,
      full: `${groupPath}&${first.iid}`,
    });
    expect(first.web_url).toMatch(new RegExp(`/groups/${groupPath}/-/epics/${first.iid}$`));
    expect(second.iid).toBeGreaterThan(first.iid);
    expect(first.closed_at).toBeNull();
  });

  it('takes form parameters, trims and deduplicates labels', async () => {
    const answer = await call<Epic>('developer', 'POST', epicsOf(group), {
      form: { title: title('Form'), labels: ` x-${RUN} , ,x-${RUN},y-${RUN}`, description: 'from a form' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.labels).toEqual([`x-${RUN}`, `y-${RUN}`]);
    expect(answer.body.description).toBe('from a form');
  });

  it('makes a child epic in a subgroup whose inherited dates roll up to the parent', async () => {
    expect(sub.parent_id).toBe(first.id);
    expect(sub.due_date).toBe('2026-06-30');
    const parent = await call<Epic>('reporter', 'GET', epicOf(group, first.iid));
    expect(parent.body.due_date_from_inherited_source).toBe('2026-06-30');
    expect(parent.body.due_date_is_fixed).toBe(false);
    expect(parent.body.due_date).toBe('2026-06-30');
    expect(parent.body.end_date).toBe('2026-06-30');
    // The fixed start date wins over an inherited one.
    expect(parent.body.start_date).toBe('2026-02-01');
  });

  it('refuses a parent outside the group hierarchy (400), an unknown one (404) and a malformed one (400)', async () => {
    const above = await call('reporter', 'POST', epicsOf(group), {
      json: { title: title('Up'), parent_id: sub.id },
    });
    expect(above.status).toBe(400);
    const unknown = await call('reporter', 'POST', epicsOf(group), {
      json: { title: title('Orphan'), parent_id: 2 ** 31 },
    });
    expect(unknown.status).toBe(404);
    const malformed = await call('reporter', 'POST', epicsOf(group), {
      json: { title: title('Odd'), parent_id: 'abc' },
    });
    expect(malformed.status).toBe(400);
  });

  it('refuses a missing or blank title and a description over 1,048,576 characters (400)', async () => {
    expect((await call('reporter', 'POST', epicsOf(group), { json: { description: 'x' } })).status).toBe(400);
    expect((await call('reporter', 'POST', epicsOf(group), { json: { title: '   ' } })).status).toBe(400);
    const long = await call('reporter', 'POST', epicsOf(group), {
      json: { title: title('Long'), description: 'x'.repeat(1_048_577) },
    });
    expect(long.status).toBe(400);
    const badDate = await call('reporter', 'POST', epicsOf(group), {
      json: { title: title('Date'), start_date_fixed: '2026-02-30' },
    });
    expect(badDate.status).toBe(400);
  });

  it.each([
    ['guest', 403],
    ['outsider', 403],
    ['anonymous', 401],
    ['invalid', 401],
  ] as const)('answers %s with %i', async (caller, status) => {
    const answer = await call(caller, 'POST', epicsOf(group), { json: { title: title('Denied') } });
    expect(answer.status).toBe(status);
  });

  it('answers 404 for a private group the caller cannot see', async () => {
    const answer = await call('outsider', 'POST', epicsOf(hidden), { json: { title: title('Hidden') } });
    expect(answer.status).toBe(404);
  });
});

describe('GET /groups/:id/epics/:epic_iid', () => {
  it('shows editors the fixed and inherited date fields, and subscribed to its author', async () => {
    const answer = await call<Epic>('reporter', 'GET', epicOf(group, first.iid));
    expect(answer.status).toBe(200);
    for (const field of EDIT_FIELDS) expect(answer.body, field).toHaveProperty(field);
    expect(answer.body.subscribed).toBe(true);
    const other = await call<Epic>('owner', 'GET', epicOf(group, first.iid));
    expect(other.body.subscribed).toBe(false);
  });

  it.each(['guest', 'outsider'] as const)(
    'hides the date fields from %s, who may not edit',
    async (caller) => {
      const answer = await call<Epic>(caller, 'GET', epicOf(group, first.iid));
      expect(answer.status).toBe(200);
      for (const field of EDIT_FIELDS) expect(answer.body, field).not.toHaveProperty(field);
      expect(answer.body.start_date).toBe('2026-02-01');
    },
  );

  it('gives references relative to the group asked from', async () => {
    const answer = await call<Epic>('reporter', 'GET', epicOf(hidden, sub.iid));
    expect(answer.body.references.relative).toBe(`&${sub.iid}`);
    expect(answer.body.references.full).toBe(`${hiddenPath}&${sub.iid}`);
  });

  it.each([
    ['anonymous', 401],
    ['invalid', 401],
  ] as const)('answers %s with %i', async (caller, status) => {
    expect((await call(caller, 'GET', epicOf(group, first.iid))).status).toBe(status);
  });

  it('answers 404 for an unknown iid and a hidden group; 400 for a non-integer iid', async () => {
    expect((await call('reporter', 'GET', epicOf(group, 2 ** 31))).status).toBe(404);
    expect((await call('outsider', 'GET', epicOf(hidden, sub.iid))).status).toBe(404);
    expect((await call('reporter', 'GET', `${epicsOf(group)}/abc`)).status).toBe(400);
  });
});

describe('GET /groups/:id/epics', () => {
  it('lists the group and its subgroups by default, newest first, with pagination headers', async () => {
    const answer = await call<Epic[]>('reporter', 'GET', epicsOf(group), {
      query: { search: RUN, per_page: '2' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(2);
    expect(Number(answer.headers.get('x-total'))).toBeGreaterThanOrEqual(5);
    expect(answer.headers.get('x-per-page')).toBe('2');
    expect(answer.headers.get('x-next-page')).toBe('2');
    const all = await listRun('reporter', group);
    const ids = all.map((epic) => epic.id);
    expect(ids).toEqual(expect.arrayContaining([first.id, second.id, closed.id, sub.id]));
    const times = all.map((epic) => epic.created_at);
    expect(times).toEqual([...times].sort().reverse());
    const fromSub = all.find((epic) => epic.id === sub.id);
    expect(fromSub?.references.relative).toBe(`${hiddenPath.slice(groupPath.length + 1)}&${sub.iid}`);
  });

  it('leaves subgroups out with include_descendant_groups=false, adds ancestors with include_ancestor_groups', async () => {
    const own = await listRun('reporter', group, { include_descendant_groups: 'false' });
    expect(own.map((epic) => epic.id)).not.toContain(sub.id);
    expect(own.map((epic) => epic.id)).toContain(first.id);
    const withAncestors = await listRun('reporter', hidden, { include_ancestor_groups: 'true' });
    const parent = withAncestors.find((epic) => epic.id === first.id);
    expect(parent?.references.relative).toBe(`${groupPath}&${first.iid}`);
    const alone = await listRun('reporter', hidden);
    expect(alone.map((epic) => epic.id)).toEqual([sub.id]);
  });

  it('leaves out the epics of subgroups the caller cannot read, and answers 404 for them', async () => {
    const outsider = await listRun('outsider', group);
    expect(outsider.map((epic) => epic.id)).not.toContain(sub.id);
    expect(outsider.map((epic) => epic.id)).toContain(first.id);
    expect((await call('outsider', 'GET', epicsOf(hidden))).status).toBe(404);
  });

  it('filters by state, author, labels (all, None, Any) and search', async () => {
    expect((await listRun('reporter', group, { state: 'closed' })).map((epic) => epic.id)).toEqual([
      closed.id,
    ]);
    const opened = await listRun('reporter', group, { state: 'opened' });
    expect(opened.map((epic) => epic.id)).not.toContain(closed.id);
    expect(opened.map((epic) => epic.id)).toContain(first.id);
    const byOwner = await listRun('reporter', group, { author_id: String(users.owner.id) });
    expect(byOwner.map((epic) => epic.id)).toEqual([second.id]);
    const beta = await listRun('reporter', group, { labels: `beta-${RUN}` });
    expect(beta.map((epic) => epic.id).sort()).toEqual([first.id, second.id].sort());
    const both = await listRun('reporter', group, { labels: `alpha-${RUN},beta-${RUN}` });
    expect(both.map((epic) => epic.id)).toEqual([first.id]);
    // An array filter, as GitLab takes it: `labels[]=a&labels[]=b` and `labels=a&labels=b`.
    for (const query of [
      `labels[]=alpha-${RUN}&labels[]=beta-${RUN}&search=${RUN}`,
      `labels=alpha-${RUN}&labels=beta-${RUN}&search=${RUN}`,
    ]) {
      const answer = await call<Epic[]>('reporter', 'GET', epicsOf(group), { query });
      expect([query, answer.status, answer.body.map((epic) => epic.id)]).toEqual([query, 200, [first.id]]);
    }
    const none = await listRun('reporter', group, { labels: 'None' });
    expect(none.map((epic) => epic.id)).toContain(closed.id);
    expect(none.map((epic) => epic.id)).not.toContain(first.id);
    const any = await listRun('reporter', group, { labels: 'Any' });
    expect(any.map((epic) => epic.id)).toContain(first.id);
    expect(any.map((epic) => epic.id)).not.toContain(closed.id);
    const described = await call<Epic[]>('reporter', 'GET', epicsOf(group), {
      query: { search: `THE FIRST ${RUN}` },
    });
    expect(described.body.map((epic) => epic.id)).toEqual([first.id]);
  });

  it('filters by the caller’s reactions: None keeps epics without one, Any only those with one', async () => {
    const none = await listRun('reporter', group, { my_reaction_emoji: 'None' });
    expect(none.map((epic) => epic.id)).toEqual(expect.arrayContaining([first.id, second.id, closed.id]));
    expect(await listRun('reporter', group, { my_reaction_emoji: 'Any' })).toEqual([]);
    expect(await listRun('reporter', group, { my_reaction_emoji: 'thumbsup' })).toEqual([]);
  });

  it('filters by creation and update times and orders by either, both ways', async () => {
    const after = await listRun('reporter', group, { created_after: second.created_at });
    expect(after.map((epic) => epic.id)).not.toContain(first.id);
    expect(after.map((epic) => epic.id)).toContain(second.id);
    const before = await listRun('reporter', group, { created_before: first.created_at });
    expect(before.map((epic) => epic.id)).toContain(first.id);
    expect(before.map((epic) => epic.id)).not.toContain(second.id);
    const updatedAfter = await listRun('reporter', group, { updated_after: closed.updated_at });
    expect(updatedAfter.map((epic) => epic.id)).toContain(closed.id);
    const updatedBefore = await listRun('reporter', group, { updated_before: '2000-01-01T00:00:00Z' });
    expect(updatedBefore).toEqual([]);
    const ascending = await listRun('reporter', group, { order_by: 'updated_at', sort: 'asc' });
    const times = ascending.map((epic) => epic.updated_at);
    expect(times).toEqual([...times].sort());
  });

  it('gives label details with with_labels_details=true', async () => {
    const answer = await listRun('reporter', group, { with_labels_details: 'true', labels: `alpha-${RUN}` });
    const label = answer[0]?.labels[0] as EpicLabel;
    expect(label.name).toBe(`alpha-${RUN}`);
    expect(label.color).toMatch(/^#[0-9a-fA-F]{6}$/);
    expect(label.text_color).toMatch(/^#[0-9a-fA-F]{6}$/);
  });

  it('shows the date fields only on epics of groups the caller may edit', async () => {
    const reporter = await listRun('reporter', group);
    expect(reporter.every((epic) => 'start_date_is_fixed' in epic)).toBe(true);
    const guest = await listRun('guest', group);
    expect(guest.length).toBeGreaterThan(0);
    expect(guest.some((epic) => 'start_date_is_fixed' in epic)).toBe(false);
  });

  it('refuses an unknown state or order (400)', async () => {
    expect((await call('reporter', 'GET', epicsOf(group), { query: { state: 'merged' } })).status).toBe(400);
    expect((await call('reporter', 'GET', epicsOf(group), { query: { order_by: 'title' } })).status).toBe(
      400,
    );
  });

  it.each([
    ['anonymous', 401],
    ['invalid', 401],
  ] as const)('answers %s with %i', async (caller, status) => {
    expect((await call(caller, 'GET', epicsOf(group))).status).toBe(status);
  });
});

describe('PUT /groups/:id/epics/:epic_iid', () => {
  it('closes and reopens an epic, setting and clearing closed_at', async () => {
    const epic = await createEpic(group, {});
    const closing = await call<Epic>('reporter', 'PUT', epicOf(group, epic.iid), {
      json: { state_event: 'close' },
    });
    expect(closing.status).toBe(200);
    expect(closing.body.state).toBe('closed');
    expect(closing.body.closed_at).not.toBeNull();
    const again = await call<Epic>('reporter', 'PUT', epicOf(group, epic.iid), {
      json: { state_event: 'close' },
    });
    expect(again.body.closed_at).toBe(closing.body.closed_at);
    const reopening = await call<Epic>('reporter', 'PUT', epicOf(group, epic.iid), {
      query: { state_event: 'reopen' },
      json: {},
    });
    expect(reopening.status).toBe(200);
    expect(reopening.body.state).toBe('opened');
    expect(reopening.body.closed_at).toBeNull();
  });

  it('takes labels as an array too, on create, on update and as a form (labels[]), as GitLab does', async () => {
    const created = await createEpic(group, { labels: [`arr-b-${RUN}`, ` arr-a-${RUN} `, `arr-b-${RUN}`] });
    expect(created.labels).toEqual([`arr-a-${RUN}`, `arr-b-${RUN}`]);
    const updated = await call<Epic>('developer', 'PUT', epicOf(group, created.iid), {
      json: { labels: ['ux', `arr-c-${RUN},arr-d-${RUN}`] },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.labels).toEqual([`arr-c-${RUN}`, `arr-d-${RUN}`, 'ux']);
    const form = await call<Epic>('developer', 'PUT', epicOf(group, created.iid), {
      form: { 'labels[]': `arr-e-${RUN}` },
    });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    expect(form.body.labels).toEqual([`arr-e-${RUN}`]);
  });

  it('changes the title, description, labels and dates given, and only those', async () => {
    const epic = await createEpic(group, { description: 'before', labels: `old-${RUN}` });
    const answer = await call<Epic>('developer', 'PUT', epicOf(group, epic.iid), {
      json: {
        title: title('Renamed'),
        labels: `new-${RUN}`,
        due_date_is_fixed: true,
        due_date_fixed: '2026-09-30',
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.title).toContain('Renamed');
    expect(answer.body.description).toBe('before');
    expect(answer.body.labels).toEqual([`new-${RUN}`]);
    expect(answer.body.due_date).toBe('2026-09-30');
    expect(answer.body.due_date_fixed).toBe('2026-09-30');
    const unfixed = await call<Epic>('developer', 'PUT', epicOf(group, epic.iid), {
      json: { due_date_is_fixed: false },
    });
    expect(unfixed.body.due_date).toBeNull();
    expect(unfixed.body.due_date_fixed).toBe('2026-09-30');
  });

  it('refuses an update without any field, a blank title and an unknown state event (400)', async () => {
    expect((await call('reporter', 'PUT', epicOf(group, first.iid), { json: {} })).status).toBe(400);
    expect((await call('reporter', 'PUT', epicOf(group, first.iid), { json: { title: ' ' } })).status).toBe(
      400,
    );
    const event = await call('reporter', 'PUT', epicOf(group, first.iid), { json: { state_event: 'merge' } });
    expect(event.status).toBe(400);
  });

  it.each([
    ['guest', 403],
    ['outsider', 403],
    ['anonymous', 401],
    ['invalid', 401],
  ] as const)('answers %s with %i', async (caller, status) => {
    const answer = await call(caller, 'PUT', epicOf(group, first.iid), { json: { title: title('No') } });
    expect(answer.status).toBe(status);
  });

  it('answers 404 for an unknown epic and a hidden group', async () => {
    expect((await call('reporter', 'PUT', epicOf(group, 2 ** 31), { json: { title: 'x' } })).status).toBe(
      404,
    );
    expect((await call('outsider', 'PUT', epicOf(hidden, sub.iid), { json: { title: 'x' } })).status).toBe(
      404,
    );
  });
});

describe('confidential epics (the confidential_epics feature flag)', () => {
  it('makes confidential epics once the flag is on for the group, which only Reporters and above read', async () => {
    const gate = await call('admin', 'POST', '/features/confidential_epics', {
      json: { value: 'true', group: groupPath },
    });
    expect(gate.status).toBe(201);
    const secret = await createEpic(group, { confidential: true });
    expect(secret.confidential).toBe(true);
    expect((await call('reporter', 'GET', epicOf(group, secret.iid))).status).toBe(200);
    for (const caller of ['guest', 'outsider'] as const) {
      expect((await call(caller, 'GET', epicOf(group, secret.iid))).status, caller).toBe(404);
      expect((await call(caller, 'POST', `${epicOf(group, secret.iid)}/todo`)).status, caller).toBe(404);
      const listed = await listRun(caller, group);
      expect(listed.map((epic) => epic.id)).not.toContain(secret.id);
    }
    const listed = await listRun('reporter', group);
    expect(listed.map((epic) => epic.id)).toContain(secret.id);
    // A child takes its parent's confidentiality, and may not drop it.
    const child = await createEpic(group, { parent_id: secret.id });
    expect(child.confidential).toBe(true);
    const open = await call('reporter', 'POST', epicsOf(group), {
      json: { title: title('Open child'), parent_id: secret.id, confidential: false },
    });
    expect(open.status).toBe(400);
    // A parent with a non-confidential child cannot become confidential.
    const parent = await createEpic(group, {});
    await createEpic(group, { parent_id: parent.id });
    const hide = await call('reporter', 'PUT', epicOf(group, parent.iid), { json: { confidential: true } });
    expect(hide.status).toBe(400);
  });
});

describe('DELETE /groups/:id/epics/:epic_iid', () => {
  it('lets owners delete an epic (204), after which it is gone and its iid is not given again', async () => {
    const epic = await createEpic(group, {});
    const child = await createEpic(group, { parent_id: epic.id });
    for (const caller of ['maintainer', 'reporter', 'guest', 'outsider'] as const) {
      expect((await call(caller, 'DELETE', epicOf(group, epic.iid))).status, caller).toBe(403);
    }
    expect((await call('anonymous', 'DELETE', epicOf(group, epic.iid))).status).toBe(401);
    expect((await call('owner', 'DELETE', epicOf(group, epic.iid))).status).toBe(204);
    expect((await call('owner', 'GET', epicOf(group, epic.iid))).status).toBe(404);
    expect((await call('owner', 'DELETE', epicOf(group, epic.iid))).status).toBe(404);
    const orphan = await call<Epic>('owner', 'GET', epicOf(group, child.iid));
    expect(orphan.body.parent_id).toBeNull();
    const next = await createEpic(group, {});
    expect(next.iid).toBeGreaterThan(child.iid);
  });
});

describe('POST /groups/:id/epics/:epic_iid/todo', () => {
  it.each(['guest', 'outsider', 'admin'] as const)(
    'creates a marked to-do for %s (201), then 304',
    async (caller) => {
      const epic = await createEpic(group, {});
      const answer = await call<Todo>(caller, 'POST', `${epicOf(group, epic.iid)}/todo`);
      expect(answer.status).toBe(201);
      expect(answer.body.action_name).toBe('marked');
      expect(answer.body.target_type).toBe('Epic');
      expect(answer.body.target.id).toBe(epic.id);
      expect(answer.body.group?.full_path).toBe(groupPath);
      expect(answer.body.state).toBe('pending');
      expect(answer.body.body).toBe(epic.title);
      const again = await call(caller, 'POST', `${epicOf(group, epic.iid)}/todo`);
      expect(again.status).toBe(304);
    },
  );

  it('answers 401 without a valid token and 404 for an unknown epic or a hidden group', async () => {
    expect((await call('anonymous', 'POST', `${epicOf(group, first.iid)}/todo`)).status).toBe(401);
    expect((await call('invalid', 'POST', `${epicOf(group, first.iid)}/todo`)).status).toBe(401);
    expect((await call('reporter', 'POST', `${epicOf(group, 2 ** 31)}/todo`)).status).toBe(404);
    expect((await call('outsider', 'POST', `${epicOf(hidden, sub.iid)}/todo`)).status).toBe(404);
  });
});
