// Notes on issues, merge requests, project snippets and epics (document 2, 4.4): list with sort and order_by,
// read, create, modify, delete; the body's limits; created_at for owners and administrators; internal
// notes; award emoji bodies; system notes on closing and reopening; @mentions that make to-dos; the
// 401/403/404 role matrix. Every issue the file makes carries RUN in its title and only its own notes are
// counted, so a shared server's other notes (and a second run's) do not disturb it.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureUser, openTarget, RUN, type Target, type UserRole } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

let target: Target;
let publicProject: string;
let privateProject: string;
let users: Record<UserRole, FixtureUser>;

type Note = components['schemas']['Note'];
type AwardEmoji = components['schemas']['AwardEmoji'];
type Issue = components['schemas']['Issue'];
type MergeRequest = components['schemas']['MergeRequest'];
type Todo = components['schemas']['Todo'];

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = <T = unknown>(
  caller: Caller,
  method: Method,
  path: string,
  options: {
    query?: Record<string, string>;
    json?: Record<string, unknown>;
    form?: Record<string, string>;
  } = {},
) => callAs<T>(target, caller, path, { method, ...options });

let counter = 0;
/** A text unique to this run and call. */
const unique = (what: string) => `${what} ${RUN}-${++counter}`;

const issueNotes = (project: string, iid: number) => `/projects/${project}/issues/${iid}/notes`;
const mergeRequestNotes = (project: string, iid: number) =>
  `/projects/${project}/merge_requests/${iid}/notes`;

async function createIssue(
  project: string,
  fields: Record<string, unknown> = {},
  caller: Caller = 'developer',
) {
  const { status, body } = await call<Issue>(caller, 'POST', `/projects/${project}/issues`, {
    json: { title: unique('Notes issue'), ...fields },
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

async function createNote(path: string, fields: Record<string, unknown>, caller: Caller = 'developer') {
  const { status, body } = await call<Note>(caller, 'POST', path, { json: fields });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

async function listNotes(path: string, caller: Caller = 'developer', query: Record<string, string> = {}) {
  const { status, body, headers } = await call<Note[]>(caller, 'GET', path, {
    query: { per_page: '100', ...query },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return { notes: body, headers };
}

beforeAll(async () => {
  target = await openTarget();
  const { fixtures } = target.config;
  publicProject = encodeURIComponent(fixtures.publicProject);
  privateProject = encodeURIComponent(fixtures.privateProject);
  users = fixtures.users;
});
afterAll(async () => {
  await target.close();
});

describe('issue notes: create, read, list', () => {
  let issue: Issue;
  const bodies: string[] = [];

  beforeAll(async () => {
    issue = await createIssue(publicProject);
    for (const what of ['first', 'second', 'third']) {
      const body = unique(what);
      bodies.push(body);
      await createNote(issueNotes(publicProject, issue.iid), { body });
    }
  });

  it('creates a note (201) in the Note shape', async () => {
    const body = unique('A comment');
    const note = await createNote(issueNotes(publicProject, issue.iid), { body }, 'guest');
    expect(note).toMatchObject({
      body,
      attachment: null,
      system: false,
      noteable_id: issue.id,
      noteable_type: 'Issue',
      noteable_iid: issue.iid,
      resolvable: false,
      confidential: false,
    });
    expect(note.author).toMatchObject({ id: users.guest.id, username: users.guest.username });
    expect(note.created_at).toBe(note.updated_at);

    const read = await call<Note>('outsider', 'GET', `${issueNotes(publicProject, issue.iid)}/${note.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(note);
  });

  it('takes the body as a form and in the query string', async () => {
    const body = unique('Form comment');
    const form = await call<Note>('developer', 'POST', issueNotes(publicProject, issue.iid), {
      form: { body },
    });
    expect(form.status).toBe(201);
    expect(form.body.body).toBe(body);
    const inQuery = unique('Query comment');
    const query = await call<Note>('developer', 'POST', issueNotes(publicProject, issue.iid), {
      query: { body: inQuery },
    });
    expect(query.status).toBe(201);
    expect(query.body.body).toBe(inQuery);
  });

  it('lists newest first by default, sort=asc and order_by=updated_at reorder', async () => {
    const path = issueNotes(publicProject, issue.iid);
    const mine = (notes: Note[]) => notes.map((note) => note.body).filter((body) => bodies.includes(body));
    expect(mine((await listNotes(path)).notes)).toEqual([...bodies].reverse());
    expect(mine((await listNotes(path, 'developer', { sort: 'asc' })).notes)).toEqual(bodies);

    // Editing the first note makes it the most recently updated one.
    const { notes } = await listNotes(path, 'developer', { sort: 'asc' });
    const first = notes.find((note) => note.body === bodies[0]);
    expect(first).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const edited = unique('first, edited');
    const put = await call<Note>('developer', 'PUT', `${path}/${first?.id}`, { json: { body: edited } });
    expect(put.status).toBe(200);
    bodies[0] = edited;
    const byUpdate = await listNotes(path, 'developer', { order_by: 'updated_at', sort: 'desc' });
    expect(mine(byUpdate.notes)[0]).toBe(edited);
  });

  it('paginates with the X-Total headers', async () => {
    const path = issueNotes(publicProject, issue.iid);
    const all = (await listNotes(path)).notes;
    const { status, body, headers } = await call<Note[]>('developer', 'GET', path, {
      query: { per_page: '2', page: '2', sort: 'asc' },
    });
    expect(status).toBe(200);
    expect(headers.get('x-total')).toBe(String(all.length));
    expect(headers.get('x-per-page')).toBe('2');
    expect(headers.get('x-page')).toBe('2');
    expect(body.map((note) => note.id)).toEqual(
      [...all]
        .reverse()
        .slice(2, 4)
        .map((note) => note.id),
    );
  });

  it('refuses a missing, blank or too long body and bad list parameters (400)', async () => {
    const path = issueNotes(publicProject, issue.iid);
    expect((await call('developer', 'POST', path, { json: {} })).status).toBe(400);
    expect((await call('developer', 'POST', path, { json: { body: '   ' } })).status).toBe(400);
    expect((await call('developer', 'POST', path, { json: { body: 'x'.repeat(1_000_001) } })).status).toBe(
      400,
    );
    const longest = await call<Note>('developer', 'POST', path, { json: { body: 'y'.repeat(1_000_000) } });
    expect(longest.status).toBe(201);
    expect(longest.body.body.length).toBe(1_000_000);
    expect((await call('developer', 'GET', path, { query: { sort: 'sideways' } })).status).toBe(400);
    expect((await call('developer', 'GET', path, { query: { order_by: 'title' } })).status).toBe(400);
    expect(
      (await call('developer', 'POST', path, { json: { body: 'ok', created_at: 'yesterday' } })).status,
    ).toBe(400);
  });

  it('answers 404 for an unknown note, a note of another issue and an unknown issue', async () => {
    const path = issueNotes(publicProject, issue.iid);
    expect((await call('developer', 'GET', `${path}/987654321`)).status).toBe(404);
    const other = await createIssue(publicProject);
    const note = await createNote(issueNotes(publicProject, other.iid), { body: unique('Elsewhere') });
    expect((await call('developer', 'GET', `${path}/${note.id}`)).status).toBe(404);
    expect((await call('developer', 'PUT', `${path}/${note.id}`, { json: { body: 'x' } })).status).toBe(404);
    expect((await call('developer', 'DELETE', `${path}/${note.id}`)).status).toBe(404);
    expect((await call('developer', 'GET', issueNotes(publicProject, 987654321))).status).toBe(404);
  });
});

describe('created_at', () => {
  it('is honoured for owners and administrators, ignored for others, on create and modify', async () => {
    const issue = await createIssue(publicProject);
    const path = issueNotes(publicProject, issue.iid);
    const past = '2020-02-03T04:05:06.000Z';
    for (const caller of ['owner', 'admin'] as const) {
      const note = await createNote(path, { body: unique('Backdated'), created_at: past }, caller);
      expect(note.created_at).toBe(past);
    }
    const ignored = await createNote(path, { body: unique('Not backdated'), created_at: past }, 'maintainer');
    expect(ignored.created_at).not.toBe(past);

    const later = '2021-01-01T00:00:00.000Z';
    const moved = await call<Note>('owner', 'PUT', `${path}/${ignored.id}`, {
      json: { body: unique('Moved'), created_at: later },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.created_at).toBe(later);
    const kept = await call<Note>('maintainer', 'PUT', `${path}/${ignored.id}`, {
      json: { body: unique('Kept'), created_at: past },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.created_at).toBe(later);
  });
});

describe('modify and delete', () => {
  let issue: Issue;
  beforeAll(async () => {
    issue = await createIssue(publicProject);
  });

  it('lets the author and Maintainers edit, no one else (403)', async () => {
    const path = issueNotes(publicProject, issue.iid);
    const note = await createNote(path, { body: unique('Mine') }, 'developer');
    for (const caller of ['reporter', 'guest', 'outsider'] as const) {
      const { status } = await call(caller, 'PUT', `${path}/${note.id}`, { json: { body: 'not yours' } });
      expect(status, caller).toBe(403);
    }
    const byAuthor = await call<Note>('developer', 'PUT', `${path}/${note.id}`, {
      json: { body: unique('Edited') },
    });
    expect(byAuthor.status).toBe(200);
    const byMaintainer = await call<Note>('maintainer', 'PUT', `${path}/${note.id}`, {
      form: { body: unique('Moderated') },
    });
    expect(byMaintainer.status).toBe(200);
    expect(byMaintainer.body.author.id).toBe(users.developer.id);
    expect(Date.parse(byMaintainer.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(note.updated_at));
    expect((await call('developer', 'PUT', `${path}/${note.id}`, { json: { body: ' ' } })).status).toBe(400);
    expect((await call('developer', 'PUT', `${path}/${note.id}`, { json: {} })).status).toBe(400);
  });

  it('lets the author and Maintainers delete (204), no one else (403)', async () => {
    const path = issueNotes(publicProject, issue.iid);
    const first = await createNote(path, { body: unique('Delete me') }, 'guest');
    const second = await createNote(path, { body: unique('Delete me too') }, 'guest');
    for (const caller of ['developer', 'reporter', 'outsider'] as const)
      expect((await call(caller, 'DELETE', `${path}/${first.id}`)).status, caller).toBe(403);
    expect((await call('guest', 'DELETE', `${path}/${first.id}`)).status).toBe(204);
    expect((await call('guest', 'GET', `${path}/${first.id}`)).status).toBe(404);
    expect((await call('guest', 'DELETE', `${path}/${first.id}`)).status).toBe(404);
    expect((await call('maintainer', 'DELETE', `${path}/${second.id}`)).status).toBe(204);
  });
});

describe('system notes', () => {
  it('records closing and reopening an issue; they cannot be edited or deleted', async () => {
    const issue = await createIssue(publicProject);
    const path = `/projects/${publicProject}/issues/${issue.iid}`;
    expect((await call('developer', 'PUT', path, { json: { state_event: 'close' } })).status).toBe(200);
    // Closing a closed issue changes nothing and writes nothing.
    expect((await call('developer', 'PUT', path, { json: { state_event: 'close' } })).status).toBe(200);
    expect((await call('maintainer', 'PUT', path, { json: { state_event: 'reopen' } })).status).toBe(200);
    const { notes } = await listNotes(issueNotes(publicProject, issue.iid), 'guest', { sort: 'asc' });
    expect(notes.map((note) => [note.body, note.system, note.author.username])).toEqual([
      ['closed', true, users.developer.username],
      ['reopened', true, users.maintainer.username],
    ]);
    const closed = notes[0];
    for (const caller of ['developer', 'maintainer', 'admin'] as const) {
      const edit = await call(caller, 'PUT', `${issueNotes(publicProject, issue.iid)}/${closed?.id}`, {
        json: { body: 'rewritten' },
      });
      expect(edit.status, caller).toBe(403);
      const remove = await call(caller, 'DELETE', `${issueNotes(publicProject, issue.iid)}/${closed?.id}`);
      expect(remove.status, caller).toBe(403);
    }
  });
});

describe('label changes', () => {
  // The seeds (document 2, notes): "Label notes are not part of this API". GitLab records a label added or
  // removed as a resource label event, which its notes API does not list (doc/api/discussions.md).
  it('write no note: adding and removing a label leaves the notes list as it was', async () => {
    const issue = await createIssue(publicProject);
    const path = `/projects/${publicProject}/issues/${issue.iid}`;
    const label = unique('triage');
    const added = await call<Issue>('developer', 'PUT', path, { json: { add_labels: label } });
    expect(added.status).toBe(200);
    expect(added.body.labels).toContain(label);
    const removed = await call<Issue>('developer', 'PUT', path, { json: { remove_labels: label } });
    expect(removed.body.labels).not.toContain(label);
    const { notes } = await listNotes(issueNotes(publicProject, issue.iid), 'developer');
    expect(notes).toEqual([]);
  });
});

describe('internal notes', () => {
  it('are written by Reporters and above and read only by them', async () => {
    const issue = await createIssue(publicProject);
    const path = issueNotes(publicProject, issue.iid);
    const internal = await createNote(path, { body: unique('Internal'), internal: true }, 'reporter');
    expect(internal.confidential).toBe(true);
    const legacy = await createNote(path, { body: unique('Legacy name'), confidential: true }, 'maintainer');
    expect(legacy.confidential).toBe(true);
    // Below Reporter the flag is ignored.
    const open = await createNote(path, { body: unique('Guest tries'), internal: true }, 'guest');
    expect(open.confidential).toBe(false);

    for (const caller of ['reporter', 'developer', 'admin'] as const) {
      const { notes } = await listNotes(path, caller);
      expect(notes.map((note) => note.id).sort(), caller).toEqual([internal.id, legacy.id, open.id].sort());
      expect((await call(caller, 'GET', `${path}/${internal.id}`)).status, caller).toBe(200);
    }
    for (const caller of ['guest', 'outsider'] as const) {
      const { notes, headers } = await listNotes(path, caller);
      expect(
        notes.map((note) => note.id),
        caller,
      ).toEqual([open.id]);
      expect(headers.get('x-total'), caller).toBe('1');
      expect((await call(caller, 'GET', `${path}/${internal.id}`)).status, caller).toBe(404);
    }
  });
});

describe('award emoji', () => {
  it('a body that is only an award emoji awards it instead (201, once per user: 400 again)', async () => {
    const issue = await createIssue(publicProject);
    const path = issueNotes(publicProject, issue.iid);
    const { status, body } = await call<AwardEmoji>('reporter', 'POST', path, {
      json: { body: ':thumbsup:' },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({ name: 'thumbsup', awardable_id: issue.id, awardable_type: 'Issue' });
    expect(body.user.id).toBe(users.reporter.id);
    const again = await call('reporter', 'POST', path, { json: { body: ':+1:' } });
    expect(again.status).toBe(400);
    const other = await call<AwardEmoji>('guest', 'POST', path, { json: { body: ':+1: ' } });
    expect(other.status).toBe(201);
    expect(other.body.name).toBe('thumbsup');
    // No notes were made; an emoji among words, or an unknown name, stays a note.
    expect((await listNotes(path)).notes).toEqual([]);
    const words = await createNote(path, { body: 'nice :thumbsup:' });
    expect(words.body).toBe('nice :thumbsup:');
    const unknown = await createNote(path, { body: `:not_an_emoji_${counter}:` });
    expect(unknown.system).toBe(false);
  });
});

describe('mentions', () => {
  it('give each mentioned user who may read the issue a to-do', async () => {
    const issue = await createIssue(publicProject);
    const body = unique(`Ping @${users.reporter.username} and @${users.outsider.username}`);
    const note = await createNote(issueNotes(publicProject, issue.iid), { body }, 'maintainer');
    for (const caller of ['reporter', 'outsider'] as const) {
      const { status, body: todos } = await call<Todo[]>(caller, 'GET', '/todos', {
        query: { per_page: '100' },
      });
      expect(status).toBe(200);
      const todo = todos.find((item) => item.target_type === 'Issue' && item.target.id === issue.id);
      expect(todo, caller).toMatchObject({ action_name: 'mentioned', body: note.body });
    }
  });

  it('on a confidential issue, only users who may read it get one', async () => {
    const issue = await createIssue(publicProject, { confidential: true }, 'maintainer');
    const body = unique(`Look @${users.developer.username} @${users.guest.username}`);
    await createNote(issueNotes(publicProject, issue.iid), { body }, 'maintainer');
    const todosOf = async (caller: Caller) =>
      (await call<Todo[]>(caller, 'GET', '/todos', { query: { per_page: '100' } })).body.filter(
        (todo) => todo.target_type === 'Issue' && todo.target.id === issue.id,
      );
    expect(await todosOf('developer')).toHaveLength(1);
    expect(await todosOf('guest')).toHaveLength(0);
  });
});

describe('merge request notes', () => {
  it('create, list, read, modify and delete on a merge request', async () => {
    const list = await call<MergeRequest[]>('developer', 'GET', `/projects/${publicProject}/merge_requests`);
    expect(list.status).toBe(200);
    const mergeRequest = list.body[0];
    expect(mergeRequest).toBeDefined();
    if (!mergeRequest) return;
    const path = mergeRequestNotes(publicProject, mergeRequest.iid);
    const note = await createNote(path, { body: unique('Review') }, 'reporter');
    expect(note).toMatchObject({
      noteable_type: 'MergeRequest',
      noteable_id: mergeRequest.id,
      noteable_iid: mergeRequest.iid,
    });
    expect((await listNotes(path, 'outsider')).notes.map((item) => item.id)).toContain(note.id);
    expect((await call('guest', 'GET', `${path}/${note.id}`)).status).toBe(200);
    expect((await call('developer', 'PUT', `${path}/${note.id}`, { json: { body: 'x' } })).status).toBe(403);
    expect(
      (await call('reporter', 'PUT', `${path}/${note.id}`, { json: { body: unique('Fixed') } })).status,
    ).toBe(200);
    expect((await call('reporter', 'DELETE', `${path}/${note.id}`)).status).toBe(204);
    expect((await call('developer', 'GET', mergeRequestNotes(publicProject, 987654321))).status).toBe(404);
  });

  it('of a private project: Reporters and above read them, guests and outsiders get 404', async () => {
    const list = await call<MergeRequest[]>('reporter', 'GET', `/projects/${privateProject}/merge_requests`);
    const mergeRequest = list.body[0];
    expect(mergeRequest).toBeDefined();
    if (!mergeRequest) return;
    const path = mergeRequestNotes(privateProject, mergeRequest.iid);
    for (const caller of ['admin', 'owner', 'maintainer', 'developer', 'reporter'] as const)
      expect((await call(caller, 'GET', path)).status, caller).toBe(200);
    for (const caller of ['guest', 'outsider'] as const) {
      expect((await call(caller, 'GET', path)).status, caller).toBe(404);
      expect((await call(caller, 'POST', path, { json: { body: 'hi' } })).status, caller).toBe(404);
    }
  });
});

describe('snippet notes', () => {
  interface Snippet {
    id: number;
  }
  async function createSnippet(visibility: string): Promise<Snippet> {
    const { status, body } = await call<Snippet>('developer', 'POST', `/projects/${publicProject}/snippets`, {
      json: { title: unique('Notes snippet'), file_name: 'a.txt', content: 'hello', visibility },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return body;
  }

  it('create, list, read, modify and delete on a project snippet; no internal notes there (400)', async () => {
    const snippet = await createSnippet('public');
    const path = `/projects/${publicProject}/snippets/${snippet.id}/notes`;
    const note = await createNote(path, { body: unique('Snippet comment') }, 'outsider');
    expect(note).toMatchObject({ noteable_type: 'Snippet', noteable_id: snippet.id, noteable_iid: null });
    expect((await listNotes(path, 'guest')).notes.map((item) => item.id)).toEqual([note.id]);
    expect((await call('reporter', 'GET', `${path}/${note.id}`)).status).toBe(200);
    expect(
      (await call('outsider', 'PUT', `${path}/${note.id}`, { json: { body: unique('Edited') } })).status,
    ).toBe(200);
    expect((await call('developer', 'PUT', `${path}/${note.id}`, { json: { body: 'x' } })).status).toBe(403);
    expect((await call('reporter', 'POST', path, { json: { body: 'secret', internal: true } })).status).toBe(
      400,
    );
    const award = await call<AwardEmoji>('guest', 'POST', path, { json: { body: ':tada:' } });
    expect(award.status).toBe(201);
    expect(award.body).toMatchObject({ name: 'tada', awardable_type: 'Snippet', awardable_id: snippet.id });
    expect((await call('maintainer', 'DELETE', `${path}/${note.id}`)).status).toBe(204);
  });

  it('a private snippet is a 404 to outsiders; an unknown one to everybody', async () => {
    const snippet = await createSnippet('private');
    const path = `/projects/${publicProject}/snippets/${snippet.id}/notes`;
    expect((await call('guest', 'GET', path)).status).toBe(200);
    expect((await call('outsider', 'GET', path)).status).toBe(404);
    expect((await call('outsider', 'POST', path, { json: { body: 'x' } })).status).toBe(404);
    const unknown = `/projects/${publicProject}/snippets/987654321/notes`;
    expect((await call('developer', 'GET', unknown)).status).toBe(404);
    expect((await call('developer', 'POST', unknown, { json: { body: 'hi' } })).status).toBe(404);
  });
});

describe('epic notes', () => {
  interface Epic {
    id: number;
    iid: number;
  }
  let namespace: string;
  let epic: Epic;
  beforeAll(async () => {
    namespace = encodeURIComponent(target.config.fixtures.namespace);
    const { status, body } = await call<Epic>('maintainer', 'POST', `/groups/${namespace}/epics`, {
      json: { title: unique('Notes epic') },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    epic = body;
  });

  it('create, list, read, modify and delete on an epic (by its ID)', async () => {
    const path = `/groups/${namespace}/epics/${epic.id}/notes`;
    const note = await createNote(path, { body: unique('Epic comment') }, 'developer');
    expect(note).toMatchObject({ noteable_type: 'Epic', noteable_id: epic.id, noteable_iid: epic.iid });
    const internal = await createNote(path, { body: unique('Epic internal'), internal: true }, 'reporter');
    expect(internal.confidential).toBe(true);
    expect((await listNotes(path, 'reporter')).notes.map((item) => item.id)).toEqual([internal.id, note.id]);
    expect((await listNotes(path, 'guest')).notes.map((item) => item.id)).toEqual([note.id]);
    expect((await call('guest', 'GET', `${path}/${internal.id}`)).status).toBe(404);
    expect((await call('reporter', 'PUT', `${path}/${note.id}`, { json: { body: 'x' } })).status).toBe(403);
    expect(
      (await call('developer', 'PUT', `${path}/${note.id}`, { json: { body: unique('Fixed') } })).status,
    ).toBe(200);
    expect((await call('maintainer', 'DELETE', `${path}/${internal.id}`)).status).toBe(204);
    expect((await call('developer', 'DELETE', `${path}/${note.id}`)).status).toBe(204);
  });

  it('refuses created_at on epic notes (400)', async () => {
    const path = `/groups/${namespace}/epics/${epic.id}/notes`;
    const created = await call('owner', 'POST', path, {
      json: { body: unique('Dated'), created_at: '2020-01-01T00:00:00Z' },
    });
    expect(created.status).toBe(400);
    const note = await createNote(path, { body: unique('Undated') }, 'owner');
    const modified = await call('owner', 'PUT', `${path}/${note.id}`, {
      json: { body: unique('Dated'), created_at: '2020-01-01T00:00:00Z' },
    });
    expect(modified.status).toBe(400);
  });

  it('records closing and reopening an epic', async () => {
    const { body: made } = await call<Epic>('maintainer', 'POST', `/groups/${namespace}/epics`, {
      json: { title: unique('Closing epic') },
    });
    const epicPath = `/groups/${namespace}/epics/${made.iid}`;
    expect((await call('maintainer', 'PUT', epicPath, { json: { state_event: 'close' } })).status).toBe(200);
    expect((await call('reporter', 'PUT', epicPath, { json: { state_event: 'reopen' } })).status).toBe(200);
    const { notes } = await listNotes(`/groups/${namespace}/epics/${made.id}/notes`, 'guest', {
      sort: 'asc',
    });
    expect(notes.map((note) => [note.body, note.system, note.author.username])).toEqual([
      ['closed', true, users.maintainer.username],
      ['reopened', true, users.reporter.username],
    ]);
  });

  it('needs a token (401); an unknown epic is a 404', async () => {
    const path = `/groups/${namespace}/epics/${epic.id}/notes`;
    expect((await call('anonymous', 'GET', path)).status).toBe(401);
    expect((await call('invalid', 'POST', path, { json: { body: 'x' } })).status).toBe(401);
    expect((await call('developer', 'GET', `/groups/${namespace}/epics/987654321/notes`)).status).toBe(404);
  });
});

describe('role matrix', () => {
  let issue: Issue;
  let confidential: Issue;
  let privateIssue: Issue;
  let note: Note;

  beforeAll(async () => {
    issue = await createIssue(publicProject);
    note = await createNote(issueNotes(publicProject, issue.iid), { body: unique('Matrix') });
    confidential = await createIssue(publicProject, { confidential: true }, 'maintainer');
    privateIssue = await createIssue(privateProject, {}, 'developer');
  });

  it('needs a valid token on every operation (401)', async () => {
    const path = issueNotes(publicProject, issue.iid);
    for (const caller of ['anonymous', 'invalid'] as const) {
      expect((await call(caller, 'GET', path)).status, caller).toBe(401);
      expect((await call(caller, 'GET', `${path}/${note.id}`)).status, caller).toBe(401);
      expect((await call(caller, 'POST', path, { json: { body: 'x' } })).status, caller).toBe(401);
      expect((await call(caller, 'PUT', `${path}/${note.id}`, { json: { body: 'x' } })).status, caller).toBe(
        401,
      );
      expect((await call(caller, 'DELETE', `${path}/${note.id}`)).status, caller).toBe(401);
    }
  });

  it('public project: every signed-in user reads and comments', async () => {
    const path = issueNotes(publicProject, issue.iid);
    for (const caller of [
      'admin',
      'owner',
      'maintainer',
      'developer',
      'reporter',
      'guest',
      'outsider',
    ] as const) {
      expect((await call(caller, 'GET', path)).status, caller).toBe(200);
      expect((await call(caller, 'POST', path, { json: { body: unique(caller) } })).status, caller).toBe(201);
    }
  });

  it('a confidential issue is a 404 to those who may not see it', async () => {
    const path = issueNotes(publicProject, confidential.iid);
    for (const caller of ['admin', 'owner', 'maintainer', 'developer', 'reporter'] as const)
      expect((await call(caller, 'GET', path)).status, caller).toBe(200);
    for (const caller of ['guest', 'outsider'] as const) {
      expect((await call(caller, 'GET', path)).status, caller).toBe(404);
      expect((await call(caller, 'POST', path, { json: { body: 'x' } })).status, caller).toBe(404);
    }
  });

  it('a private project is a 404 to outsiders; its members read and comment', async () => {
    const path = issueNotes(privateProject, privateIssue.iid);
    for (const caller of ['admin', 'owner', 'maintainer', 'developer', 'reporter', 'guest'] as const)
      expect((await call(caller, 'GET', path)).status, caller).toBe(200);
    const created = await createNote(path, { body: unique('Private') }, 'guest');
    expect((await call('outsider', 'GET', path)).status).toBe(404);
    expect((await call('outsider', 'GET', `${path}/${created.id}`)).status).toBe(404);
    expect((await call('outsider', 'POST', path, { json: { body: 'x' } })).status).toBe(404);
    expect((await call('outsider', 'DELETE', `${path}/${created.id}`)).status).toBe(404);
  });

  it('a locked discussion takes comments from project members only (403)', async () => {
    const locked = await createIssue(publicProject);
    const put = await call('maintainer', 'PUT', `/projects/${publicProject}/issues/${locked.iid}`, {
      json: { discussion_locked: true },
    });
    expect(put.status).toBe(200);
    const path = issueNotes(publicProject, locked.iid);
    expect((await call('outsider', 'POST', path, { json: { body: 'x' } })).status).toBe(403);
    expect((await call('guest', 'POST', path, { json: { body: unique('Member') } })).status).toBe(201);
  });
});
