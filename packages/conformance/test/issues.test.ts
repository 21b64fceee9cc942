// Project issues (GitLab v4): create, read, list with its filters and pagination, update (state events,
// labels, assignees), confidential issues, and the 401/403/404 matrix of every role. Every issue the file
// makes carries RUN in its title, and the lists are filtered by it, so a shared server's other issues
// (and a second run's) do not disturb it.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureUser, openTarget, type Role, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

let target: Target;
let publicProject: string;
let privateProject: string;
/** The internal project, whose issues feature is disabled. */
let internalProject: string;
let users: Record<Exclude<Role, 'developerReadRepository' | 'revoked'>, FixtureUser>;

beforeAll(async () => {
  target = await openTarget();
  const { fixtures } = target.config;
  publicProject = encodeURIComponent(fixtures.publicProject);
  privateProject = encodeURIComponent(fixtures.privateProject);
  internalProject = encodeURIComponent(fixtures.internalProject);
  users = fixtures.users;
});
afterAll(async () => {
  await target.close();
});

type Issue = components['schemas']['Issue'];
/** The body of an error answer (400, 404). */
type ErrorBody = components['schemas']['Error'];

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

const issuesOf = (project: string) => `/projects/${project}/issues`;
const issueOf = (project: string, iid: number) => `/projects/${project}/issues/${iid}`;

let counter = 0;
/** A title unique to this run and call. */
const title = (what: string) => `${what} ${RUN}-${++counter}`;

async function createIssue(
  project: string,
  fields: Record<string, unknown>,
  caller: Caller = 'developer',
): Promise<Issue> {
  const { status, body } = await call<Issue>(caller, 'POST', issuesOf(project), { json: fields });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

/** The titles of the issues a list returns for this run (`search` narrows it to the run). */
async function listTitles(
  caller: Caller,
  project: string,
  query: Record<string, string> | string,
): Promise<string[]> {
  const search =
    typeof query === 'string' ? `search=${encodeURIComponent(RUN)}&${query}` : { search: RUN, ...query };
  const { status, body } = await call<Issue[]>(caller, 'GET', issuesOf(project), { query: search });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.map((issue) => issue.title);
}

describe('create and read', () => {
  it('creates an issue (201) with the next iid, the author, labels, assignees and GitLab fields', async () => {
    const first = await createIssue(publicProject, { title: title('First') });
    const second = await createIssue(publicProject, {
      title: title('Second'),
      description: 'Steps\n- [x] one\n- [ ] two\n- [ ] three',
      labels: 'bug, frontend,bug',
      assignee_ids: [users.developer.id],
      due_date: '2030-01-31',
    });
    expect(second.iid).toBe(first.iid + 1);
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({
      state: 'opened',
      closed_at: null,
      closed_by: null,
      labels: ['bug', 'frontend'],
      confidential: false,
      due_date: '2030-01-31',
      has_tasks: true,
      task_completion_status: { count: 3, completed_count: 1 },
      subscribed: true,
      references: { short: `#${second.iid}`, relative: `#${second.iid}` },
    });
    expect(second.author.username).toBe(users.developer.username);
    expect(second.assignees.map((user) => user.id)).toEqual([users.developer.id]);
    expect(second.assignee?.id).toBe(users.developer.id);
    expect(second.references.full).toBe(`${target.config.fixtures.publicProject}#${second.iid}`);
    expect(second.web_url).toMatch(
      new RegExp(`/${target.config.fixtures.publicProject}/-/issues/${second.iid}$`),
    );
    expect(second._links.self).toMatch(
      new RegExp(`/api/v4/projects/${second.project_id}/issues/${second.iid}$`),
    );

    const read = await call<Issue>('anonymous', 'GET', issueOf(publicProject, second.iid));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: second.id, title: second.title, labels: ['bug', 'frontend'] });
    expect(read.body.subscribed).toBe(false);
  });

  it('takes the labels as an array and the parameters as a form', async () => {
    const fromArray = await createIssue(publicProject, { title: title('Array'), labels: ['b', 'a'] });
    expect(fromArray.labels).toEqual(['a', 'b']);
    const { status, body } = await call<Issue>('developer', 'POST', issuesOf(publicProject), {
      form: { title: title('Form'), confidential: 'true', labels: 'x,y' },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({ confidential: true, labels: ['x', 'y'] });
  });

  it('ignores the metadata of callers below Reporter and created_at of non-owners', async () => {
    const byGuest = await createIssue(
      publicProject,
      { title: title('Guest'), labels: 'bug', assignee_ids: [users.developer.id], due_date: '2030-01-01' },
      'guest',
    );
    expect(byGuest).toMatchObject({ labels: [], assignees: [], due_date: null });
    const createdAt = '2020-05-04T03:02:01.000Z';
    const byDeveloper = await createIssue(publicProject, { title: title('Dated'), created_at: createdAt });
    expect(byDeveloper.created_at).not.toBe(createdAt);
    const byAdmin = await createIssue(
      publicProject,
      { title: title('Dated'), created_at: createdAt },
      'admin',
    );
    expect(byAdmin.created_at).toBe(createdAt);
  });

  it('drops assignees who cannot see the project', async () => {
    const issue = await createIssue(privateProject, {
      title: title('Private'),
      assignee_ids: [users.outsider.id],
    });
    expect(issue.assignees).toEqual([]);
  });

  it('refuses a missing or blank title (400)', async () => {
    expect(
      (await call('developer', 'POST', issuesOf(publicProject), { json: { description: 'x' } })).status,
    ).toBe(400);
    const blank = await call<ErrorBody>('developer', 'POST', issuesOf(publicProject), {
      json: { title: '   ' },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toEqual({ title: ["can't be blank"] });
  });

  it('answers 404 for an unknown issue and for projects the caller cannot see', async () => {
    expect((await call('developer', 'GET', issueOf(publicProject, 999_999_999))).status).toBe(404);
    const issue = await createIssue(privateProject, { title: title('Hidden') });
    for (const caller of ['outsider', 'anonymous'] as const) {
      expect((await call(caller, 'GET', issueOf(privateProject, issue.iid))).status).toBe(404);
      expect((await call(caller, 'GET', issuesOf(privateProject))).status).toBe(404);
    }
    expect((await call('guest', 'GET', issueOf(privateProject, issue.iid))).status).toBe(200);
    expect((await call('invalid', 'GET', issuesOf(publicProject))).status).toBe(401);
  });
});

describe('who may create', () => {
  it('follows the role matrix of a public and a private project', async () => {
    const statuses = async (project: string, callers: readonly Caller[]) => {
      const answers: Record<string, number> = {};
      for (const caller of callers)
        answers[caller] = (
          await call(caller, 'POST', issuesOf(project), { json: { title: title(caller) } })
        ).status;
      return answers;
    };
    expect(
      await statuses(publicProject, [
        'anonymous',
        'invalid',
        'revoked',
        'developerReadRepository',
        'outsider',
        'guest',
      ]),
    ).toEqual({
      anonymous: 401,
      invalid: 401,
      revoked: 401,
      developerReadRepository: 403,
      outsider: 201,
      guest: 201,
    });
    expect(
      await statuses(privateProject, ['anonymous', 'outsider', 'guest', 'reporter', 'owner', 'admin']),
    ).toEqual({
      anonymous: 401,
      outsider: 404,
      guest: 201,
      reporter: 201,
      owner: 201,
      admin: 201,
    });
  });

  it('refuses issues in a project whose issues feature is disabled (403), whose list is empty', async () => {
    expect(
      (await call('maintainer', 'POST', issuesOf(internalProject), { json: { title: title('Off') } })).status,
    ).toBe(403);
    const list = await call<Issue[]>('maintainer', 'GET', issuesOf(internalProject));
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    expect((await call('maintainer', 'GET', issueOf(internalProject, 1))).status).toBe(404);
  });
});

describe('confidential issues', () => {
  it('are seen only by their author, their assignees and Reporters and above', async () => {
    const secret = await createIssue(
      publicProject,
      { title: title('Secret'), confidential: true, assignee_ids: [users.outsider.id] },
      'maintainer',
    );
    const byGuest = await createIssue(
      publicProject,
      { title: title('Guest secret'), confidential: true },
      'guest',
    );
    expect(secret.assignees.map((user) => user.id)).toEqual([users.outsider.id]);
    const sees = async (caller: Caller, issue: Issue) => {
      const one = (await call(caller, 'GET', issueOf(publicProject, issue.iid))).status;
      const listed = (await listTitles(caller, publicProject, { confidential: 'true' })).includes(
        issue.title,
      );
      expect(one === 200, `${caller}: read ${one}, listed ${listed}`).toBe(listed);
      return listed;
    };
    expect(await sees('anonymous', secret)).toBe(false);
    expect(await sees('guest', secret)).toBe(false);
    expect(await sees('developer', byGuest)).toBe(true);
    expect(await sees('reporter', secret)).toBe(true);
    expect(await sees('outsider', secret)).toBe(true); // an assignee
    expect(await sees('outsider', byGuest)).toBe(false);
    expect(await sees('guest', byGuest)).toBe(true); // the author
    expect(
      (await call('guest', 'PUT', issueOf(publicProject, secret.iid), { json: { title: 'x' } })).status,
    ).toBe(404);
  });
});

describe('update', () => {
  it('closes and reopens (closed_at and closed_by set and cleared)', async () => {
    const issue = await createIssue(publicProject, { title: title('Close me') });
    const closed = await call<Issue>('reporter', 'PUT', issueOf(publicProject, issue.iid), {
      json: { state_event: 'close' },
    });
    expect(closed.status).toBe(200);
    expect(closed.body.state).toBe('closed');
    expect(closed.body.closed_by?.id).toBe(users.reporter.id);
    expect(closed.body.closed_at).not.toBeNull();
    const reopened = await call<Issue>('developer', 'PUT', issueOf(publicProject, issue.iid), {
      form: { state_event: 'reopen' },
    });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null });
    const bad = await call('developer', 'PUT', issueOf(publicProject, issue.iid), {
      json: { state_event: 'merge' },
    });
    expect(bad.status).toBe(400);
  });

  it('changes the title, description, labels (replace, add, remove), assignees and due date', async () => {
    const issue = await createIssue(publicProject, { title: title('Edit me'), labels: 'a,b' });
    const path = issueOf(publicProject, issue.iid);
    const edited = await call<Issue>('reporter', 'PUT', path, {
      json: {
        title: `${issue.title} (edited)`,
        description: '- [x] done',
        add_labels: 'c',
        remove_labels: ['a'],
      },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      title: `${issue.title} (edited)`,
      labels: ['b', 'c'],
      task_completion_status: { count: 1, completed_count: 1 },
    });
    const relabelled = await call<Issue>('reporter', 'PUT', path, {
      json: { labels: 'z', assignee_ids: [users.guest.id], due_date: '2031-02-03', confidential: true },
    });
    expect(relabelled.body).toMatchObject({ labels: ['z'], due_date: '2031-02-03', confidential: true });
    expect(relabelled.body.assignees.map((user) => user.id)).toEqual([users.guest.id]);
    const cleared = await call<Issue>('reporter', 'PUT', path, {
      json: { labels: '', assignee_ids: [], due_date: '' },
    });
    expect(cleared.body).toMatchObject({ labels: [], assignees: [], assignee: null, due_date: null });
  });

  it('needs at least one parameter (400)', async () => {
    const issue = await createIssue(publicProject, { title: title('Nothing') });
    const { status, body } = await call<ErrorBody>('developer', 'PUT', issueOf(publicProject, issue.iid), {
      json: {},
    });
    expect(status).toBe(400);
    expect(body.error).toMatch(/at least one parameter must be provided/);
  });

  it('lets the author, assignees and Reporters and above edit, and refuses others (401/403/404)', async () => {
    const issue = await createIssue(publicProject, { title: title('Guarded') }, 'guest');
    const path = issueOf(publicProject, issue.iid);
    const statuses: Record<string, number> = {};
    for (const caller of [
      'anonymous',
      'invalid',
      'developerReadRepository',
      'outsider',
      'guest',
      'reporter',
      'admin',
    ] as const)
      statuses[caller] = (await call(caller, 'PUT', path, { json: { description: `by ${caller}` } })).status;
    expect(statuses).toEqual({
      anonymous: 401,
      invalid: 401,
      developerReadRepository: 403,
      outsider: 403,
      guest: 200,
      reporter: 200,
      admin: 200,
    });
    const other = await createIssue(publicProject, { title: title('Other') }, 'reporter');
    expect(
      (await call('guest', 'PUT', issueOf(publicProject, other.iid), { json: { title: 'no' } })).status,
    ).toBe(403);
    expect(
      (await call('developer', 'PUT', issueOf(publicProject, 999_999_999), { json: { title: 'no' } })).status,
    ).toBe(404);
    expect(
      (await call('outsider', 'PUT', issueOf(privateProject, 1), { json: { title: 'no' } })).status,
    ).toBe(404);
  });
});

describe('list', () => {
  it('filters by state, labels, author, assignee, iids and confidentiality, and orders', async () => {
    const a = await createIssue(publicProject, {
      title: title('Alpha'),
      labels: 'red,blue',
      assignee_ids: [users.developer.id],
    });
    const b = await createIssue(publicProject, { title: title('Beta'), labels: 'red' }, 'reporter');
    const c = await createIssue(publicProject, { title: title('Gamma') }, 'guest');
    await call('reporter', 'PUT', issueOf(publicProject, c.iid), { json: { state_event: 'close' } });
    const mine = (titles: string[]) => titles.filter((t) => [a.title, b.title, c.title].includes(t));

    expect(mine(await listTitles('guest', publicProject, { state: 'closed' }))).toEqual([c.title]);
    expect(mine(await listTitles('guest', publicProject, { state: 'opened' }))).toEqual([b.title, a.title]);
    expect(mine(await listTitles('guest', publicProject, {}))).toEqual([c.title, b.title, a.title]);
    expect(mine(await listTitles('guest', publicProject, { order_by: 'created_at', sort: 'asc' }))).toEqual([
      a.title,
      b.title,
      c.title,
    ]);
    expect(mine(await listTitles('guest', publicProject, { labels: 'red,blue' }))).toEqual([a.title]);
    expect(mine(await listTitles('guest', publicProject, { labels: 'red' }))).toEqual([b.title, a.title]);
    // As an array, as GitLab takes it.
    expect(mine(await listTitles('guest', publicProject, 'labels[]=red&labels[]=blue'))).toEqual([a.title]);
    expect(mine(await listTitles('guest', publicProject, 'labels=red&labels=blue'))).toEqual([a.title]);
    expect(mine(await listTitles('guest', publicProject, 'labels[]=none'))).toEqual([c.title]);
    expect(mine(await listTitles('guest', publicProject, { labels: 'None' }))).toEqual([c.title]);
    expect(mine(await listTitles('guest', publicProject, { labels: 'Any' }))).toEqual([b.title, a.title]);
    expect(mine(await listTitles('guest', publicProject, { author_id: String(users.reporter.id) }))).toEqual([
      b.title,
    ]);
    expect(
      mine(await listTitles('guest', publicProject, { assignee_id: String(users.developer.id) })),
    ).toEqual([a.title]);
    expect(mine(await listTitles('guest', publicProject, { assignee_id: 'None' }))).toEqual([
      c.title,
      b.title,
    ]);
    expect(mine(await listTitles('guest', publicProject, { assignee_id: 'Any' }))).toEqual([a.title]);
    expect(mine(await listTitles('guest', publicProject, `iids[]=${a.iid}&iids[]=${c.iid}`))).toEqual([
      c.title,
      a.title,
    ]);
    expect(mine(await listTitles('guest', publicProject, { confidential: 'false' }))).toEqual([
      c.title,
      b.title,
      a.title,
    ]);
    // `search` looks into descriptions too, ignoring case.
    const described = await createIssue(publicProject, {
      title: 'No run in title',
      description: `About ${RUN.toUpperCase()}`,
    });
    expect(await listTitles('guest', publicProject, { iids: String(described.iid) })).toContain(
      'No run in title',
    );
  });

  it('pages with the pagination headers', async () => {
    for (let i = 0; i < 3; i += 1) await createIssue(publicProject, { title: title('Paged') });
    const { status, body, headers } = await call<Issue[]>('guest', 'GET', issuesOf(publicProject), {
      query: { search: `Paged ${RUN}`, per_page: '2', page: '1' },
    });
    expect(status).toBe(200);
    expect(body).toHaveLength(2);
    expect(headers.get('x-total')).toBe('3');
    expect(headers.get('x-total-pages')).toBe('2');
    expect(headers.get('x-next-page')).toBe('2');
    expect(headers.get('link')).toContain('rel="next"');
  });

  it('refuses invalid filters (400)', async () => {
    for (const query of [
      { state: 'merged' },
      { order_by: 'title' },
      { sort: 'up' },
      { author_id: 'me' },
      { assignee_id: 'someone' },
    ] as Record<string, string>[])
      expect(
        (await call('guest', 'GET', issuesOf(publicProject), { query })).status,
        JSON.stringify(query),
      ).toBe(400);
  });
});

describe('delete', () => {
  it("is for the project's owners and administrators: 204 with its notes and to-dos, 403 for other roles", async () => {
    const issue = await createIssue(publicProject, {
      title: title('Doomed'),
      assignee_ids: [users.maintainer.id],
    });
    const note = await call<{ id: number }>('guest', 'POST', `${issueOf(publicProject, issue.iid)}/notes`, {
      json: { body: `On a doomed issue ${RUN}` },
    });
    expect(note.status).toBe(201);
    const todoTitles = async () =>
      (
        await call<{ target: { title: string } }[]>('maintainer', 'GET', '/todos', {
          query: { type: 'Issue', per_page: '100' },
        })
      ).body.map((todo) => todo.target.title);
    expect(await todoTitles()).toContain(issue.title);
    const refused: [Caller, number][] = [
      ['anonymous', 401],
      ['invalid', 401],
      ['revoked', 401],
      ['developerReadRepository', 403],
      ['outsider', 403],
      ['guest', 403],
      ['reporter', 403],
      // The author and the Maintainers may not either (GitLab's destroy_issue is the owners').
      ['developer', 403],
      ['maintainer', 403],
    ];
    for (const [caller, status] of refused)
      expect((await call(caller, 'DELETE', issueOf(publicProject, issue.iid))).status, caller).toBe(status);
    expect((await call('developer', 'GET', issueOf(publicProject, issue.iid))).status).toBe(200);

    const deleted = await call('owner', 'DELETE', issueOf(publicProject, issue.iid));
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await call('owner', 'GET', issueOf(publicProject, issue.iid))).status).toBe(404);
    expect(
      (await call('owner', 'GET', `${issueOf(publicProject, issue.iid)}/notes/${note.body.id}`)).status,
    ).toBe(404);
    expect(await todoTitles()).not.toContain(issue.title);
    expect((await call('owner', 'DELETE', issueOf(publicProject, issue.iid))).status).toBe(404);
    expect(await listTitles('owner', publicProject, { state: 'all' })).not.toContain(issue.title);
  });

  it('lets administrators delete too; 404 for an unknown issue or a project the caller cannot see', async () => {
    const hidden = await createIssue(privateProject, { title: title('Hidden doomed') });
    expect((await call('outsider', 'DELETE', issueOf(privateProject, hidden.iid))).status).toBe(404);
    expect((await call('owner', 'DELETE', issueOf(privateProject, 999_999_999))).status).toBe(404);
    expect((await call('admin', 'DELETE', issueOf(privateProject, hidden.iid))).status).toBe(204);
    expect((await call('guest', 'GET', issueOf(privateProject, hidden.iid))).status).toBe(404);
  });

  it('answers 403, not 404, to a caller who cannot read the confidential issue (GitLab authorizes what it found)', async () => {
    const secret = await createIssue(
      publicProject,
      { title: title('Doomed secret'), confidential: true },
      'maintainer',
    );
    expect((await call('guest', 'GET', issueOf(publicProject, secret.iid))).status).toBe(404);
    expect((await call('guest', 'DELETE', issueOf(publicProject, secret.iid))).status).toBe(403);
    expect((await call('owner', 'DELETE', issueOf(publicProject, secret.iid))).status).toBe(204);
  });
});
