// To-do items (document 2, section 4.11): the caller's list and its filters, marking one and all done, and
// the to-dos the server makes itself (an issue assigned to someone, an @mention in its description).
// Tolerant of a shared server: every check is on the to-dos of the issues this run creates.
import type { components, operations } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Role, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

let target: Target;

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target.close();
});

type Todo = components['schemas']['Todo'];
type Issue = components['schemas']['Issue'];
type Group = components['schemas']['GroupDetails'];
/** A single project: the full form for signed-in callers, the summary form otherwise. */
type Project = operations['getProject']['responses'][200]['content']['application/json'];

/**
 * The to-dos of `issue`: of its type and its id, since an epic (or a merge request) of the shared server can
 * have the issue's id, and another file's to-do on it would then be counted as one of the issue's.
 */
const onIssue = (issue: Issue) => (todo: Todo) => todo.target_type === 'Issue' && todo.target.id === issue.id;

const enc = encodeURIComponent;
const user = (role: Exclude<Role, 'developerReadRepository' | 'revoked'>) =>
  target.config.fixtures.users[role];

async function createIssue(project: string, body: Record<string, unknown>): Promise<Issue> {
  const { status, body: issue } = await callAs<Issue>(
    target,
    'maintainer',
    `/projects/${enc(project)}/issues`,
    {
      method: 'POST',
      json: body,
    },
  );
  expect(status, JSON.stringify(issue)).toBe(201);
  return issue;
}

async function todosOf(caller: Caller, query: Record<string, string> = {}): Promise<Todo[]> {
  const { status, body } = await callAs<Todo[]>(target, caller, '/todos', {
    query: { per_page: '100', ...query },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

describe('to-dos the server makes', () => {
  let issue: Issue;

  beforeAll(async () => {
    issue = await createIssue(target.config.fixtures.publicProject, {
      title: `To-do issue ${RUN}`,
      description: `@${user('reporter').username} please look.\n\nAlso cc @${user('guest').username} and @nobody-${RUN}.`,
      assignee_ids: [user('developer').id],
    });
  });

  it('gives the assignee an `assigned` to-do by the assigner', async () => {
    const todos = (await todosOf('developer', { type: 'Issue' })).filter(onIssue(issue));
    expect(todos).toHaveLength(1);
    const [todo] = todos;
    expect(todo?.action_name).toBe('assigned');
    expect(todo?.author.id).toBe(user('maintainer').id);
    expect(todo?.state).toBe('pending');
    expect(todo?.target.iid).toBe(issue.iid);
    expect(todo?.body).toBe(`To-do issue ${RUN}`);
    expect(todo?.project?.path_with_namespace).toBe(target.config.fixtures.publicProject);
    expect(todo?.target_url).toMatch(new RegExp(`/-/issues/${issue.iid}$`));
  });

  it('gives users named first a `directly_addressed` to-do and the others a `mentioned` one', async () => {
    const reporter = (await todosOf('reporter')).filter(onIssue(issue));
    expect(reporter.map((todo) => todo.action_name)).toEqual(['directly_addressed']);
    const guest = (await todosOf('guest')).filter(onIssue(issue));
    expect(guest.map((todo) => todo.action_name)).toEqual(['mentioned']);
  });

  it('gives no to-do to a mentioned user who cannot read the issue', async () => {
    const hidden = await createIssue(target.config.fixtures.privateProject, {
      title: `Private to-do issue ${RUN}`,
      description: `@${user('outsider').username} look`,
    });
    const outsider = (await todosOf('outsider')).filter(onIssue(hidden));
    expect(outsider).toEqual([]);
  });

  it('gives to-dos only to users newly assigned or newly mentioned by an update', async () => {
    const { status } = await callAs(
      target,
      'maintainer',
      `/projects/${enc(target.config.fixtures.publicProject)}/issues/${issue.iid}`,
      {
        method: 'PUT',
        json: {
          description: `@${user('reporter').username} please look.\n\n@${user('owner').username} too`,
          assignee_ids: [user('developer').id],
        },
      },
    );
    expect(status).toBe(200);
    expect((await todosOf('developer')).filter(onIssue(issue))).toHaveLength(1);
    expect((await todosOf('reporter')).filter(onIssue(issue))).toHaveLength(1);
    const owner = (await todosOf('owner')).filter(onIssue(issue));
    expect(owner.map((todo) => todo.action_name)).toEqual(['mentioned']);
  });
});

describe('GET /todos filters', () => {
  let issue: Issue;

  beforeAll(async () => {
    issue = await createIssue(target.config.fixtures.publicProject, {
      title: `Filtered to-do ${RUN}`,
      description: `cc @${user('developer').username}`,
      assignee_ids: [user('developer').id],
    });
  });

  const mine = (todos: Todo[]) => todos.filter(onIssue(issue));

  it('filters by action, author, project, group and type', async () => {
    expect(mine(await todosOf('developer', { action: 'assigned' })).map((t) => t.action_name)).toEqual([
      'assigned',
    ]);
    expect(mine(await todosOf('developer', { action: 'mentioned' })).map((t) => t.action_name)).toEqual([
      'mentioned',
    ]);
    expect(mine(await todosOf('developer', { action: 'marked' }))).toEqual([]);
    expect(mine(await todosOf('developer', { author_id: String(user('maintainer').id) }))).toHaveLength(2);
    expect(mine(await todosOf('developer', { author_id: String(user('owner').id) }))).toEqual([]);
    expect(mine(await todosOf('developer', { project_id: String(issue.project_id) }))).toHaveLength(2);
    expect(mine(await todosOf('developer', { type: 'MergeRequest' }))).toEqual([]);
    expect(mine(await todosOf('developer', { type: 'Issue' }))).toHaveLength(2);
    const group = await callAs<Group>(
      target,
      'developer',
      `/groups/${enc(target.config.fixtures.namespace)}`,
    );
    expect(mine(await todosOf('developer', { group_id: String(group.body.id) }))).toHaveLength(2);
    const other = await callAs<Group>(
      target,
      'admin',
      `/groups/${enc(target.config.fixtures.sharedGroup.path)}`,
    );
    expect(mine(await todosOf('developer', { group_id: String(other.body.id) }))).toEqual([]);
  });

  it('lists pending to-dos without filters and done ones with state=done', async () => {
    expect(mine(await todosOf('developer'))).toHaveLength(2);
    expect(mine(await todosOf('developer', { state: 'done' }))).toEqual([]);
  });

  it('pages the list with the pagination headers', async () => {
    const { status, headers, body } = await callAs<Todo[]>(target, 'developer', '/todos', {
      query: { per_page: '1' },
    });
    expect(status).toBe(200);
    expect(body).toHaveLength(1);
    expect(Number(headers.get('x-total'))).toBeGreaterThanOrEqual(2);
    expect(headers.get('x-per-page')).toBe('1');
  });

  it('answers 404 for an unknown author, project or group and 400 for an unknown action or type', async () => {
    for (const name of ['author_id', 'project_id', 'group_id']) {
      const { status } = await callAs(target, 'developer', '/todos', { query: { [name]: '987654321' } });
      expect(status, name).toBe(404);
    }
    for (const [name, value] of [
      ['action', 'waved'],
      ['state', 'later'],
      ['type', 'Epic'],
    ] as const) {
      const { status } = await callAs(target, 'developer', '/todos', { query: { [name]: value } });
      expect(status, name).toBe(400);
    }
  });

  it('lists no to-do of a project the caller may not read', async () => {
    const privateProject = await callAs<Project>(
      target,
      'admin',
      `/projects/${enc(target.config.fixtures.privateProject)}`,
    );
    const { status, body } = await callAs<Todo[]>(target, 'outsider', '/todos', {
      query: { project_id: String(privateProject.body.id) },
    });
    expect(status).toBe(200);
    expect(body.filter((todo) => todo.project !== undefined)).toEqual([]);
  });
});

describe('marking to-dos done', () => {
  it("marks one of the caller's to-dos done (201) and leaves others' alone (404)", async () => {
    const issue = await createIssue(target.config.fixtures.publicProject, {
      title: `Done to-do ${RUN}`,
      assignee_ids: [user('reporter').id],
    });
    const [todo] = (await todosOf('reporter')).filter(onIssue(issue));
    expect(todo).toBeDefined();
    if (!todo) return;
    const other = await callAs(target, 'developer', `/todos/${todo.id}/mark_as_done`, { method: 'POST' });
    expect(other.status).toBe(404);
    const done = await callAs<Todo>(target, 'reporter', `/todos/${todo.id}/mark_as_done`, { method: 'POST' });
    expect(done.status).toBe(201);
    expect(done.body.state).toBe('done');
    expect(done.body.id).toBe(todo.id);
    expect((await todosOf('reporter')).filter((item) => item.id === todo.id)).toEqual([]);
    expect((await todosOf('reporter', { state: 'done' })).filter((item) => item.id === todo.id)).toHaveLength(
      1,
    );
    const again = await callAs<Todo>(target, 'reporter', `/todos/${todo.id}/mark_as_done`, {
      method: 'POST',
    });
    expect(again.status).toBe(201);
    expect(again.body.state).toBe('done');
    const unknown = await callAs(target, 'reporter', '/todos/987654321/mark_as_done', { method: 'POST' });
    expect(unknown.status).toBe(404);
  });

  it("marks all of the caller's pending to-dos done (204)", async () => {
    const issue = await createIssue(target.config.fixtures.publicProject, {
      title: `All done ${RUN}`,
      description: `@${user('guest').username}`,
      assignee_ids: [user('guest').id],
    });
    expect((await todosOf('guest')).filter(onIssue(issue))).toHaveLength(2);
    const { status, body } = await callAs(target, 'guest', '/todos/mark_as_done', { method: 'POST' });
    expect(status).toBe(204);
    expect(body).toBeUndefined();
    expect((await todosOf('guest')).filter(onIssue(issue))).toEqual([]);
    expect((await todosOf('guest', { state: 'done' })).filter(onIssue(issue))).toHaveLength(2);
  });

  it("closing an issue marks the closer's to-dos on it done", async () => {
    const issue = await createIssue(target.config.fixtures.publicProject, {
      title: `Closed to-do ${RUN}`,
      assignee_ids: [user('maintainer').id],
    });
    expect((await todosOf('maintainer')).filter(onIssue(issue))).toHaveLength(1);
    const closed = await callAs(
      target,
      'maintainer',
      `/projects/${enc(target.config.fixtures.publicProject)}/issues/${issue.iid}`,
      { method: 'PUT', json: { state_event: 'close' } },
    );
    expect(closed.status).toBe(200);
    expect((await todosOf('maintainer')).filter(onIssue(issue))).toEqual([]);
  });
});

describe('who may call', () => {
  it('answers 401 without a valid token', async () => {
    for (const caller of ['anonymous', 'invalid', 'revoked'] as const) {
      expect((await callAs(target, caller, '/todos')).status, caller).toBe(401);
      expect((await callAs(target, caller, '/todos/mark_as_done', { method: 'POST' })).status, caller).toBe(
        401,
      );
      expect((await callAs(target, caller, '/todos/1/mark_as_done', { method: 'POST' })).status, caller).toBe(
        401,
      );
    }
  });

  it('lets a read_repository token do nothing (403)', async () => {
    expect((await callAs(target, 'developerReadRepository', '/todos')).status).toBe(403);
    const { status } = await callAs(target, 'developerReadRepository', '/todos/mark_as_done', {
      method: 'POST',
    });
    expect(status).toBe(403);
  });
});
