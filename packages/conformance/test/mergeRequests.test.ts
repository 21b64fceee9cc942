// Project merge requests (GitLab v4): list with its filters and pagination, read one, and the 401/403/404
// matrix of every role, on the merge requests of the fixtures (see `publicProject` in src/config.ts); then
// the writes: create, update (state events, labels, assignees, target branch) and merge, a real git merge
// as each `merge_method` makes it, with the refusals GitLab gives (401, 405, 406, 409), system notes,
// to-dos and concurrent merges. The writes use branches and projects of this run (RUN in their names), so
// the fixtures' merge requests stay as they are and a shared server can run the file again.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  againstSuiteServer,
  demoConfig,
  type FixtureUser,
  openTarget,
  type Role,
  RUN,
  startLocalServer,
  type Target,
  targetFor,
} from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

let target: Target;
let publicProject: string;
let privateProject: string;
let internalProject: string;
/** A project with the merge requests feature disabled (the owner's personal public project). */
let disabledProject: string;
let unprotectedBranch: string;
let users: Record<Exclude<Role, 'developerReadRepository' | 'revoked'>, FixtureUser>;

beforeAll(async () => {
  target = await openTarget();
  const { fixtures } = target.config;
  publicProject = encodeURIComponent(fixtures.publicProject);
  privateProject = encodeURIComponent(fixtures.privateProject);
  internalProject = encodeURIComponent(fixtures.internalProject);
  disabledProject = encodeURIComponent(fixtures.projects.personalPublic);
  unprotectedBranch = fixtures.unprotectedBranch;
  users = fixtures.users;
});
afterAll(async () => {
  await target.close();
});

type MergeRequest = components['schemas']['MergeRequest'];
/** The body of an error answer (400, 404). */
type ErrorBody = components['schemas']['Error'];

const call = <T = unknown>(caller: Caller, path: string, query?: Record<string, string> | string) =>
  callAs<T>(target, caller, path, { query });
const listOf = (project: string) => `/projects/${project}/merge_requests`;
const oneOf = (project: string, iid: number) => `/projects/${project}/merge_requests/${iid}`;

async function list(caller: Caller, project: string, query?: Record<string, string> | string) {
  const { status, body } = await call<MergeRequest[]>(caller, listOf(project), query);
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

/** The fixture's open merge request from the unprotected branch. */
async function openFromBranch(): Promise<MergeRequest> {
  const found = (
    await list('developer', publicProject, { state: 'opened', source_branch: unprotectedBranch })
  )[0];
  if (!found) throw new Error(`no open merge request from ${unprotectedBranch} in the public project`);
  return found;
}

describe('list', () => {
  it('lists the fixture merge requests, newest first, in the basic shape', async () => {
    const all = await list('anonymous', publicProject);
    expect(all.length).toBeGreaterThan(1);
    const created = all.map((mr) => mr.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    for (const mr of all) {
      expect(mr.target_project_id).toBe(mr.project_id);
      expect(mr.subscribed).toBeUndefined();
      expect(mr.user).toBeUndefined();
    }
    const open = await openFromBranch();
    expect(open).toMatchObject({
      state: 'opened',
      target_branch: 'main',
      draft: false,
      work_in_progress: false,
    });
    expect(open.author.id).toBe(users.developer.id);
    expect(open.reviewers.map((user) => user.id)).toContain(users.maintainer.id);
    expect(open.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(open.references.short).toBe(`!${open.iid}`);
    expect(open.web_url).toMatch(new RegExp(`/-/merge_requests/${open.iid}$`));
  });

  it('filters by state, branches, labels, search, author and iids', async () => {
    const all = await list('guest', publicProject);
    for (const state of ['opened', 'closed', 'merged', 'locked'] as const) {
      const some = await list('guest', publicProject, { state });
      expect(some.map((mr) => mr.iid)).toEqual(all.filter((mr) => mr.state === state).map((mr) => mr.iid));
    }
    const merged = all.find((mr) => mr.state === 'merged');
    expect(merged?.merged_by).not.toBeNull();
    expect(merged?.merged_at).not.toBeNull();
    expect(merged?.detailed_merge_status).toBe('not_open');

    const open = await openFromBranch();
    expect((await list('guest', publicProject, { target_branch: 'no-such-branch' })).length).toBe(0);
    expect(
      (await list('guest', publicProject, { source_branch: unprotectedBranch })).map((mr) => mr.iid),
    ).toContain(open.iid);
    expect(
      (await list('guest', publicProject, { author_id: String(users.developer.id) })).every(
        (mr) => mr.author.id === users.developer.id,
      ),
    ).toBe(true);
    expect(
      (await list('guest', publicProject, { search: open.title.toUpperCase() })).map((mr) => mr.iid),
    ).toContain(open.iid);
    const byIids = await list('guest', publicProject, `iids[]=${open.iid}&iids[]=999999`);
    expect(byIids.map((mr) => mr.iid)).toEqual([open.iid]);
    const labelled = await list('guest', publicProject, { labels: 'Any' });
    expect(labelled.every((mr) => mr.labels.length > 0)).toBe(true);
    const unlabelled = await list('guest', publicProject, { labels: 'None' });
    expect(unlabelled.every((mr) => mr.labels.length === 0)).toBe(true);
    expect(labelled.length + unlabelled.length).toBe(all.length);
    const first = open.labels[0];
    if (first !== undefined) {
      expect((await list('guest', publicProject, { labels: first })).map((mr) => mr.iid)).toContain(open.iid);
      // As an array, as GitLab takes it.
      const asArray = await list('guest', publicProject, `labels[]=${encodeURIComponent(first)}`);
      expect(asArray.map((mr) => mr.iid)).toContain(open.iid);
    }
    const anyArray = await list('guest', publicProject, 'labels[]=Any');
    expect(anyArray.map((mr) => mr.iid)).toEqual(labelled.map((mr) => mr.iid));
  });

  it('orders and pages with the pagination headers', async () => {
    const ascending = await list('guest', publicProject, { order_by: 'title', sort: 'asc' });
    const titles = ascending.map((mr) => mr.title);
    expect([...titles].sort()).toEqual(titles);
    const { status, body, headers } = await call<MergeRequest[]>('guest', listOf(publicProject), {
      per_page: '1',
      page: '2',
    });
    expect(status).toBe(200);
    expect(body).toHaveLength(1);
    expect(headers.get('x-page')).toBe('2');
    expect(headers.get('x-per-page')).toBe('1');
    expect(Number(headers.get('x-total'))).toBe(ascending.length);
    expect(headers.get('x-prev-page')).toBe('1');
  });

  it('refuses invalid filters (400)', async () => {
    for (const query of [
      { state: 'open' },
      { order_by: 'priority' },
      { sort: 'sideways' },
      { author_id: 'x' },
    ] as Record<string, string>[])
      expect((await call('guest', listOf(publicProject), query)).status, JSON.stringify(query)).toBe(400);
  });
});

describe('read one', () => {
  it('reads a merge request with the single-read fields', async () => {
    const open = await openFromBranch();
    const { status, body } = await call<MergeRequest>('developer', oneOf(publicProject, open.iid));
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: open.id, iid: open.iid, title: open.title, subscribed: true });
    expect(body).toHaveProperty('diff_refs');
    // `main` is protected for merges by maintainers: the developer may not merge, the maintainer may.
    expect(body.user?.can_merge).toBe(false);
    const asMaintainer = await call<MergeRequest>('maintainer', oneOf(publicProject, open.iid));
    expect(asMaintainer.body.user?.can_merge).toBe(true);
    const asOutsider = await call<MergeRequest>('outsider', oneOf(publicProject, open.iid));
    expect(asOutsider.body).toMatchObject({ subscribed: false, user: { can_merge: false } });
  });

  it('answers 404 for an unknown merge request', async () => {
    const { status, body } = await call<ErrorBody>('developer', oneOf(publicProject, 999_999_999));
    expect(status).toBe(404);
    expect(body.message).toBe('404 Merge Request Not Found');
  });
});

describe('who may read', () => {
  it('follows the role matrix of public, internal, private and disabled projects', async () => {
    const privateIid = (await list('reporter', privateProject))[0]?.iid;
    expect(privateIid).toBeDefined();
    const statuses = async (path: string, callers: readonly Caller[]) => {
      const answers: Record<string, number> = {};
      for (const caller of callers) answers[caller] = (await call(caller, path)).status;
      return answers;
    };
    const everyone: Caller[] = [
      'anonymous',
      'invalid',
      'revoked',
      'developerReadRepository',
      'outsider',
      'guest',
      'reporter',
    ];
    expect(await statuses(listOf(publicProject), everyone)).toEqual({
      anonymous: 200,
      invalid: 401,
      revoked: 401,
      developerReadRepository: 403,
      outsider: 200,
      guest: 200,
      reporter: 200,
    });
    expect(await statuses(listOf(internalProject), ['anonymous', 'outsider'])).toEqual({
      anonymous: 404,
      outsider: 200,
    });
    for (const path of [listOf(privateProject), oneOf(privateProject, privateIid ?? 1)])
      expect(await statuses(path, everyone)).toEqual({
        anonymous: 404,
        invalid: 401,
        revoked: 401,
        developerReadRepository: 403,
        outsider: 404,
        guest: 403,
        reporter: 200,
      });
    expect(await statuses(listOf(disabledProject), ['anonymous', 'owner'])).toEqual({
      anonymous: 403,
      owner: 403,
    });
  });
});

/* Writes ----------------------------------------------------------------------------------------------- */

type Branch = components['schemas']['Branch'];
type Note = components['schemas']['Note'];
type Todo = components['schemas']['Todo'];
type Project = components['schemas']['ProjectFull'];
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const enc = encodeURIComponent;
const run = RUN.toLowerCase();
let counter = 0;
/** A name unique to this run and call. */
const unique = (what: string) => `${what}-${run}-${++counter}`;

async function send<T = unknown>(
  caller: Caller,
  method: Method,
  path: string,
  status: number,
  options: {
    json?: Record<string, unknown>;
    form?: Record<string, string>;
    query?: Record<string, string>;
  } = {},
): Promise<T> {
  const answer = await callAs<T>(target, caller, path, { method, ...options });
  expect(answer.status, `${caller} ${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
}

/** A new branch of `project` from `from`, with one commit writing `file` (as the developer). */
async function branchWith(project: string, file: string, content: string, from = 'main'): Promise<string> {
  const name = unique('mr');
  await send('developer', 'POST', `/projects/${project}/repository/branches`, 201, {
    json: { branch: name, ref: from },
  });
  await commitFile(project, name, file, content);
  return name;
}

/** One commit on `branch` that creates or updates `file`. */
async function commitFile(project: string, branch: string, file: string, content: string): Promise<void> {
  const path = `/projects/${project}/repository/files/${enc(file)}`;
  const exists = (await callAs(target, 'developer', path, { query: { ref: branch } })).status === 200;
  await send('developer', exists ? 'PUT' : 'POST', path, exists ? 200 : 201, {
    json: { branch, content, commit_message: `Write ${file}` },
  });
}

async function branch(project: string, name: string): Promise<Branch> {
  return send<Branch>('developer', 'GET', `/projects/${project}/repository/branches/${enc(name)}`, 200);
}

async function createMr(project: string, fields: Record<string, unknown>, caller: Caller = 'developer') {
  return send<MergeRequest>(caller, 'POST', listOf(project), 201, {
    json: { target_branch: 'main', title: unique('MR'), ...fields },
  });
}

async function systemNotes(project: string, iid: number): Promise<string[]> {
  const notes = await send<Note[]>('developer', 'GET', `${oneOf(project, iid)}/notes`, 200, {
    query: { sort: 'asc', order_by: 'created_at', per_page: '100' },
  });
  return notes.filter((note) => note.system).map((note) => note.body);
}

/** A public project of this run in the fixtures' group (the roles' levels hold there), `main` unprotected. */
async function newProject(settings: Record<string, unknown> = {}): Promise<string> {
  const group = await send<{ id: number }>(
    'owner',
    'GET',
    `/groups/${enc(target.config.fixtures.namespace)}`,
    200,
  );
  const project = await send<Project>('owner', 'POST', '/projects', 201, {
    json: {
      name: unique('Merges'),
      namespace_id: group.id,
      visibility: 'public',
      initialize_with_readme: true,
      ...settings,
    },
  });
  createdProjects.push(project.id);
  return String(project.id);
}

const createdProjects: number[] = [];
afterAll(async () => {
  for (const id of createdProjects) await callAs(target, 'owner', `/projects/${id}`, { method: 'DELETE' });
});

describe('create', () => {
  let project: string;
  beforeAll(async () => {
    project = await newProject();
  }, 60_000);

  it('opens a merge request (201) with the next iid, the source head, labels, assignees and a to-do', async () => {
    const source = await branchWith(project, 'feature.txt', 'one\n');
    const head = (await branch(project, source)).commit.id;
    const created = await createMr(project, {
      source_branch: source,
      description: 'Please look, @developer',
      labels: 'feature, backend,feature',
      assignee_ids: [users.maintainer.id],
      remove_source_branch: true,
    });
    expect(created).toMatchObject({
      state: 'opened',
      source_branch: source,
      target_branch: 'main',
      sha: head,
      labels: ['backend', 'feature'],
      merge_status: 'can_be_merged',
      detailed_merge_status: 'mergeable',
      force_remove_source_branch: true,
      should_remove_source_branch: null,
      merged_by: null,
      merge_commit_sha: null,
      subscribed: true,
      user: { can_merge: true },
    });
    expect(created.author.id).toBe(users.developer.id);
    expect(created.assignees.map((user) => user.id)).toEqual([users.maintainer.id]);
    const next = await createMr(project, { source_branch: await branchWith(project, 'b.txt', 'b\n') });
    expect(next.iid).toBe(created.iid + 1);

    const read = await send<MergeRequest>('anonymous', 'GET', oneOf(project, created.iid), 200);
    expect(read).toMatchObject({ id: created.id, title: created.title, labels: ['backend', 'feature'] });

    const todos = await send<Todo[]>('maintainer', 'GET', '/todos', 200, {
      query: { type: 'MergeRequest', action: 'assigned', project_id: String(created.project_id) },
    });
    expect(todos.map((todo) => todo.target.id)).toContain(created.id);
    const mentions = await send<Todo[]>('developer', 'GET', '/todos', 200, {
      query: { type: 'MergeRequest', project_id: String(created.project_id) },
    });
    // The author mentioning themselves gets a to-do too, as GitLab makes it.
    expect(mentions.some((todo) => todo.target.id === created.id)).toBe(true);
  });

  it('takes the parameters as a form and the labels as an array', async () => {
    const source = await branchWith(project, 'form.txt', 'form\n');
    const { status, body } = await callAs<MergeRequest>(target, 'developer', listOf(project), {
      method: 'POST',
      form: { source_branch: source, target_branch: 'main', title: unique('Form'), squash: 'true' },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body.squash).toBe(true);
    const array = await createMr(project, {
      source_branch: await branchWith(project, 'arr.txt', 'a\n'),
      labels: ['z', 'a'],
    });
    expect(array.labels).toEqual(['a', 'z']);
  });

  it('answers 409 for an open duplicate and for the same branch, 400 for a missing branch or parameter', async () => {
    const source = await branchWith(project, 'dup.txt', 'dup\n');
    const first = await createMr(project, { source_branch: source });
    const duplicate = await send<ErrorBody>('developer', 'POST', listOf(project), 409, {
      json: { source_branch: source, target_branch: 'main', title: 'again' },
    });
    expect(duplicate.message).toEqual([
      `Another open merge request already exists for this source branch: !${first.iid}`,
    ]);
    const same = await send<ErrorBody>('developer', 'POST', listOf(project), 409, {
      json: { source_branch: 'main', target_branch: 'main', title: 'same' },
    });
    expect(same.message).toEqual(["You can't use same project/branch for source and target"]);
    const missing = await send<ErrorBody>('developer', 'POST', listOf(project), 400, {
      json: { source_branch: `no-such-${run}`, target_branch: 'main', title: 'missing' },
    });
    expect(missing.message).toEqual([`Source branch "no-such-${run}" does not exist`]);
    const noTarget = await send<ErrorBody>('developer', 'POST', listOf(project), 400, {
      json: { source_branch: source, target_branch: `no-such-${run}`, title: 'missing' },
    });
    expect(noTarget.message).toEqual([`Target branch "no-such-${run}" does not exist`]);
    const noTitle = await send<ErrorBody>('developer', 'POST', listOf(project), 400, {
      json: { source_branch: source, target_branch: 'main' },
    });
    expect(noTitle.error).toBe('title is missing');
    // Once the first is closed, another may be opened.
    await send('developer', 'PUT', oneOf(project, first.iid), 200, { json: { state_event: 'close' } });
    await createMr(project, { source_branch: source });
  });

  it('lets developers and above create (the role matrix)', async () => {
    const source = await branchWith(project, 'roles.txt', 'roles\n');
    const statuses: Record<string, number> = {};
    for (const caller of [
      'anonymous',
      'invalid',
      'outsider',
      'guest',
      'reporter',
      'developerReadRepository',
    ] as const)
      statuses[caller] = (
        await callAs(target, caller, listOf(project), {
          method: 'POST',
          json: { source_branch: source, target_branch: 'main', title: unique('Role') },
        })
      ).status;
    expect(statuses).toEqual({
      anonymous: 401,
      invalid: 401,
      outsider: 403,
      guest: 403,
      reporter: 403,
      developerReadRepository: 403,
    });
    const privateStatus = await callAs(target, 'outsider', listOf(privateProject), {
      method: 'POST',
      json: { source_branch: 'a', target_branch: 'main', title: 'x' },
    });
    expect(privateStatus.status).toBe(404);
    const disabled = await callAs(target, 'owner', listOf(disabledProject), {
      method: 'POST',
      json: { source_branch: 'a', target_branch: 'main', title: 'x' },
    });
    expect(disabled.status).toBe(403);
    for (const caller of ['maintainer', 'owner'] as const)
      await createMr(project, { source_branch: await branchWith(project, `${caller}.txt`, caller) }, caller);
  });
});

describe('update', () => {
  let project: string;
  beforeAll(async () => {
    project = await newProject();
  }, 60_000);

  it('changes the title, description, labels and assignees; closes and reopens with system notes', async () => {
    const mr = await createMr(project, {
      source_branch: await branchWith(project, 'u.txt', 'u\n'),
      labels: 'a,b',
    });
    const path = oneOf(project, mr.iid);
    const edited = await send<MergeRequest>('developer', 'PUT', path, 200, {
      json: {
        title: 'Draft: renamed',
        description: 'new',
        add_labels: 'c',
        remove_labels: ['a'],
        assignee_id: users.developer.id,
      },
    });
    expect(edited).toMatchObject({
      title: 'Draft: renamed',
      description: 'new',
      labels: ['b', 'c'],
      draft: true,
    });
    expect(edited.assignees.map((user) => user.id)).toEqual([users.developer.id]);
    const closed = await send<MergeRequest>('maintainer', 'PUT', path, 200, {
      json: { state_event: 'close' },
    });
    expect(closed).toMatchObject({ state: 'closed', detailed_merge_status: 'not_open' });
    expect(closed.closed_by?.id).toBe(users.maintainer.id);
    expect(closed.closed_at).not.toBeNull();
    const reopened = await send<MergeRequest>('developer', 'PUT', path, 200, {
      form: { state_event: 'reopen', labels: '' },
    });
    expect(reopened).toMatchObject({ state: 'opened', closed_by: null, closed_at: null, labels: [] });
    expect(await systemNotes(project, mr.iid)).toEqual(['closed', 'reopened']);
  });

  it('changes the target branch (a system note), refusing a missing or the source branch', async () => {
    const source = await branchWith(project, 't.txt', 't\n');
    const other = await branchWith(project, 'o.txt', 'o\n');
    const mr = await createMr(project, { source_branch: source });
    const path = oneOf(project, mr.iid);
    const moved = await send<MergeRequest>('developer', 'PUT', path, 200, { json: { target_branch: other } });
    expect(moved.target_branch).toBe(other);
    expect(await systemNotes(project, mr.iid)).toEqual([
      `changed target branch from \`main\` to \`${other}\``,
    ]);
    await send('developer', 'PUT', path, 400, { json: { target_branch: `gone-${run}` } });
    await send('developer', 'PUT', path, 409, { json: { target_branch: source } });
  });

  it('refuses a reopening that would duplicate an open merge request (409)', async () => {
    const source = await branchWith(project, 'r.txt', 'r\n');
    const first = await createMr(project, { source_branch: source });
    await send('developer', 'PUT', oneOf(project, first.iid), 200, { json: { state_event: 'close' } });
    const second = await createMr(project, { source_branch: source });
    const answer = await send<ErrorBody>('developer', 'PUT', oneOf(project, first.iid), 409, {
      json: { state_event: 'reopen' },
    });
    expect(answer.message).toEqual([
      `Another open merge request already exists for this source branch: !${second.iid}`,
    ]);
  });

  it('needs one parameter (400), and the author or a developer (the role matrix)', async () => {
    const mr = await createMr(project, { source_branch: await branchWith(project, 'm.txt', 'm\n') });
    const path = oneOf(project, mr.iid);
    const none = await send<ErrorBody>('developer', 'PUT', path, 400, { json: {} });
    expect(none.error).toMatch(/at least one parameter must be provided$/);
    const statuses: Record<string, number> = {};
    for (const caller of ['anonymous', 'invalid', 'outsider', 'guest', 'reporter'] as const)
      statuses[caller] = (await callAs(target, caller, path, { method: 'PUT', json: { title: 'x' } })).status;
    expect(statuses).toEqual({ anonymous: 401, invalid: 401, outsider: 403, guest: 403, reporter: 403 });
    await send('developer', 'PUT', oneOf(project, 999_999), 404, { json: { title: 'x' } });
    await send('maintainer', 'PUT', path, 200, { json: { title: 'by the maintainer' } });
  });
});

describe('merge', () => {
  let project: string;
  beforeAll(async () => {
    project = await newProject();
  }, 60_000);

  const mergePath = (p: string, iid: number) => `${oneOf(p, iid)}/merge`;

  it('refuses (405) a merge request whose source has no commits the target lacks: `commits_status`', async () => {
    const source = unique('empty');
    await send('developer', 'POST', `/projects/${project}/repository/branches`, 201, {
      json: { branch: source, ref: 'main' },
    });
    const mr = await createMr(project, { source_branch: source });
    expect(await send<MergeRequest>('developer', 'GET', oneOf(project, mr.iid), 200)).toMatchObject({
      state: 'opened',
      detailed_merge_status: 'commits_status',
    });
    await send('developer', 'PUT', mergePath(project, mr.iid), 405);
    // A commit on the source gives it something to merge.
    await commitFile(project, source, `empty-${run}.txt`, 'now\n');
    expect(await send<MergeRequest>('developer', 'GET', oneOf(project, mr.iid), 200)).toMatchObject({
      detailed_merge_status: 'mergeable',
    });
  });

  it('merges with a merge commit, records it, notes it, resolves to-dos and deletes the source when asked', async () => {
    // The target moves on after the branch is made: a true merge, not a fast-forward.
    const source = await branchWith(project, 'merge-a.txt', 'a\n');
    await commitFile(project, 'main', `main-${run}.txt`, 'main\n');
    const sourceHead = (await branch(project, source)).commit.id;
    const mainBefore = (await branch(project, 'main')).commit.id;
    const mr = await createMr(project, { source_branch: source, assignee_ids: [users.developer.id] });
    const merged = await send<MergeRequest>('developer', 'PUT', mergePath(project, mr.iid), 200, {
      json: { sha: sourceHead, should_remove_source_branch: true },
    });
    const main = await branch(project, 'main');
    expect(merged).toMatchObject({
      state: 'merged',
      merge_commit_sha: main.commit.id,
      should_remove_source_branch: true,
      detailed_merge_status: 'not_open',
      user: { can_merge: false },
    });
    expect(merged.merged_by?.id).toBe(users.developer.id);
    expect(merged.merged_at).not.toBeNull();
    expect(main.commit.parent_ids).toEqual([mainBefore, sourceHead]);
    expect(main.commit.message).toBe(
      `Merge branch '${source}' into 'main'\n\n${mr.title}\n\nSee merge request ${mr.references.full}`,
    );
    expect(main.commit.committer_name).toBe(users.developer.name);
    expect(await systemNotes(project, mr.iid)).toEqual(['merged']);
    const pending = await send<Todo[]>('developer', 'GET', '/todos', 200, {
      query: { type: 'MergeRequest', project_id: String(mr.project_id) },
    });
    expect(pending.some((todo) => todo.target.id === mr.id)).toBe(false);
    await send('developer', 'GET', `/projects/${project}/repository/branches/${enc(source)}`, 404);
    const listed = await send<MergeRequest[]>('guest', 'GET', listOf(project), 200, {
      query: { state: 'merged' },
    });
    expect(listed.map((one) => one.iid)).toContain(mr.iid);
  });

  it('answers 405 when not mergeable in its state, 406 on a conflict, 409 for a stale sha', async () => {
    const closedMr = await createMr(project, { source_branch: await branchWith(project, 'c.txt', 'c\n') });
    await send('developer', 'PUT', oneOf(project, closedMr.iid), 200, { json: { state_event: 'close' } });
    expect((await send<ErrorBody>('developer', 'PUT', mergePath(project, closedMr.iid), 405)).message).toBe(
      '405 Method Not Allowed',
    );
    const draft = await createMr(project, {
      source_branch: await branchWith(project, 'd.txt', 'd\n'),
      title: `Draft: ${unique('wip')}`,
    });
    await send('developer', 'PUT', mergePath(project, draft.iid), 405);

    const file = `conflict-${run}.txt`;
    await commitFile(project, 'main', file, 'base\n');
    const conflicting = await branchWith(project, file, 'theirs\n');
    await commitFile(project, 'main', file, 'ours\n');
    const conflictMr = await createMr(project, { source_branch: conflicting });
    expect(conflictMr).toMatchObject({ merge_status: 'cannot_be_merged', has_conflicts: true });
    const conflict = await send<ErrorBody>('developer', 'PUT', mergePath(project, conflictMr.iid), 406);
    expect(conflict.message).toBe('Branch cannot be merged');
    expect((await send<MergeRequest>('developer', 'GET', oneOf(project, conflictMr.iid), 200)).state).toBe(
      'opened',
    );

    const source = await branchWith(project, 's.txt', 's\n');
    const staleMr = await createMr(project, { source_branch: source });
    const head = (await branch(project, source)).commit.id;
    const stale = await send<ErrorBody>('developer', 'PUT', mergePath(project, staleMr.iid), 409, {
      json: { sha: 'a'.repeat(40) },
    });
    expect(stale.message).toBe(`SHA does not match HEAD of source branch: ${head}`);
    await send('developer', 'PUT', mergePath(project, staleMr.iid), 200, { form: { sha: head } });
    // Merged already.
    await send('developer', 'PUT', mergePath(project, staleMr.iid), 405);
    await send('developer', 'PUT', mergePath(project, 999_999), 404);
  });

  it('lets only those who may merge into the target branch merge (401 otherwise)', async () => {
    const mr = await createMr(project, { source_branch: await branchWith(project, 'p.txt', 'p\n') });
    const statuses: Record<string, number> = {};
    for (const caller of ['anonymous', 'invalid', 'outsider', 'guest', 'reporter'] as const)
      statuses[caller] = (await callAs(target, caller, mergePath(project, mr.iid), { method: 'PUT' })).status;
    expect(statuses).toEqual({ anonymous: 401, invalid: 401, outsider: 401, guest: 401, reporter: 401 });
    // The fixtures' public project protects `main` for merges by maintainers.
    const fixture = await createMr(publicProject, {
      source_branch: await branchWith(publicProject, `p-${run}.txt`, 'p\n'),
    });
    expect(fixture.user?.can_merge).toBe(false);
    await send('developer', 'PUT', mergePath(publicProject, fixture.iid), 401);
    await send('developer', 'PUT', oneOf(publicProject, fixture.iid), 200, {
      json: { state_event: 'close' },
    });
    const privateIid = (await list('reporter', privateProject))[0]?.iid ?? 1;
    await send('outsider', 'PUT', mergePath(privateProject, privateIid), 404);
  });

  it('merges one of two merges of one merge request at once; the other gets 405', async () => {
    const mr = await createMr(project, { source_branch: await branchWith(project, 'race.txt', 'race\n') });
    const answers = await Promise.all(
      [1, 2].map(() => callAs(target, 'developer', mergePath(project, mr.iid), { method: 'PUT' })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 405]);
    expect((await send<MergeRequest>('developer', 'GET', oneOf(project, mr.iid), 200)).state).toBe('merged');
  });

  it('squashes the source commits into one when asked', async () => {
    const source = await branchWith(project, 'sq1.txt', '1\n');
    await commitFile(project, source, 'sq2.txt', '2\n');
    const mainBefore = (await branch(project, 'main')).commit.id;
    const mr = await createMr(project, { source_branch: source });
    const merged = await send<MergeRequest>('developer', 'PUT', mergePath(project, mr.iid), 200, {
      json: { squash: true, squash_commit_message: 'All in one' },
    });
    expect(merged.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    const main = await branch(project, 'main');
    expect(main.commit.parent_ids).toEqual([mainBefore, merged.squash_commit_sha]);
  });
});

describe('delete', () => {
  it('deletes for owners and administrators only, with its notes; its branches stay', async () => {
    const project = await newProject();
    const source = await branchWith(project, 'deleted.txt', 'd\n');
    const mr = await createMr(project, { source_branch: source });
    const note = await send<Note>('developer', 'POST', `${oneOf(project, mr.iid)}/notes`, 201, {
      json: { body: `Goes with it ${run}` },
    });
    const refused: [Caller, number][] = [
      ['maintainer', 403],
      ['developer', 403],
      ['reporter', 403],
      ['outsider', 403],
      ['anonymous', 401],
      ['invalid', 401],
    ];
    for (const [caller, status] of refused)
      expect(
        (await callAs(target, caller, oneOf(project, mr.iid), { method: 'DELETE' })).status,
        caller,
      ).toBe(status);
    await send('owner', 'DELETE', oneOf(project, mr.iid), 204);
    await send('owner', 'GET', oneOf(project, mr.iid), 404);
    await send('owner', 'GET', `${oneOf(project, mr.iid)}/notes/${note.id}`, 404);
    await send('owner', 'DELETE', oneOf(project, mr.iid), 404);
    expect((await branch(project, source)).name).toBe(source);
    // The branch may have a merge request again.
    const again = await createMr(project, { source_branch: source });
    await send('admin', 'DELETE', oneOf(project, again.iid), 204);
  });
});

describe('merge methods', () => {
  it('fast-forwards with `ff` and refuses a merge that is no fast-forward (406)', async () => {
    const project = await newProject();
    await send('owner', 'PUT', `/projects/${project}`, 200, { json: { merge_method: 'ff' } });
    const source = await branchWith(project, 'ff.txt', 'ff\n');
    const head = (await branch(project, source)).commit.id;
    const behind = await branchWith(project, 'behind.txt', 'b\n');
    const mr = await createMr(project, { source_branch: source });
    const merged = await send<MergeRequest>('developer', 'PUT', `${oneOf(project, mr.iid)}/merge`, 200);
    // A fast-forward makes no merge commit: GitLab answers none.
    expect(merged.merge_commit_sha).toBeNull();
    expect((await branch(project, 'main')).commit.id).toBe(head);
    // `behind` lacks the commit main now has: no fast-forward.
    const late = await createMr(project, { source_branch: behind });
    expect(late.merge_status).toBe('cannot_be_merged');
    await send('developer', 'PUT', `${oneOf(project, late.iid)}/merge`, 406);
  }, 60_000);

  it('makes a merge commit only when a fast-forward is possible with `rebase_merge`', async () => {
    const project = await newProject();
    await send('owner', 'PUT', `/projects/${project}`, 200, { json: { merge_method: 'rebase_merge' } });
    const source = await branchWith(project, 'rm.txt', 'rm\n');
    const behind = await branchWith(project, 'rm-behind.txt', 'b\n');
    const head = (await branch(project, source)).commit.id;
    const mainBefore = (await branch(project, 'main')).commit.id;
    const mr = await createMr(project, { source_branch: source });
    await send('developer', 'PUT', `${oneOf(project, mr.iid)}/merge`, 200);
    expect((await branch(project, 'main')).commit.parent_ids).toEqual([mainBefore, head]);
    const late = await createMr(project, { source_branch: behind });
    await send('developer', 'PUT', `${oneOf(project, late.iid)}/merge`, 406);
  }, 60_000);
});

describe('refreshed when its branches move (GitLab RefreshService)', () => {
  let project: string;
  beforeAll(async () => {
    project = await newProject();
  }, 60_000);
  const mergePath = (iid: number) => `${oneOf(project, iid)}/merge`;
  const read = (iid: number) => send<MergeRequest>('developer', 'GET', oneOf(project, iid), 200);

  it('takes a commit on the source branch: new sha, diff_refs and changes_count; the old sha is stale (409)', async () => {
    const source = await branchWith(project, 'r1.txt', 'one\n');
    const first = (await branch(project, source)).commit.id;
    const main = (await branch(project, 'main')).commit.id;
    const mr = await createMr(project, { source_branch: source });
    const made = await read(mr.iid);
    expect(made).toMatchObject({
      sha: first,
      changes_count: '1',
      diff_refs: { base_sha: main, head_sha: first, start_sha: main },
    });

    await commitFile(project, source, 'r2.txt', 'two\n');
    const second = (await branch(project, source)).commit.id;
    const pushed = await read(mr.iid);
    expect(pushed).toMatchObject({
      state: 'opened',
      sha: second,
      changes_count: '2',
      merge_status: 'can_be_merged',
      diff_refs: { base_sha: main, head_sha: second, start_sha: main },
    });
    const listed = await send<MergeRequest[]>('guest', 'GET', listOf(project), 200, {
      query: { source_branch: source },
    });
    expect(listed.map((one) => one.sha)).toEqual([second]);

    // GitLab's note of the push (SystemNotes::CommitService#add_commits).
    const projectPath = (await send<Project>('developer', 'GET', `/projects/${project}`, 200))
      .path_with_namespace;
    expect(await systemNotes(project, mr.iid)).toEqual([
      [
        'added 1 commit',
        `<ul><li>${second.slice(0, 8)} - Write r2.txt</li></ul>`,
        `[Compare with previous version](/${projectPath}/-/merge_requests/${mr.iid}/diffs?start_sha=${first})`,
      ].join('\n\n'),
    ]);

    const stale = await send<ErrorBody>('developer', 'PUT', mergePath(mr.iid), 409, { json: { sha: first } });
    expect(stale.message).toBe(`SHA does not match HEAD of source branch: ${second}`);
    const merged = await send<MergeRequest>('developer', 'PUT', mergePath(mr.iid), 200, {
      json: { sha: pushed.sha },
    });
    expect(merged).toMatchObject({ state: 'merged', sha: second });
  });

  it('notes the commits a merge into its source branch brought, those the target had on one line', async () => {
    const source = await branchWith(project, 'y.txt', 'y\n');
    const before = (await branch(project, source)).commit.id;
    const mr = await createMr(project, { source_branch: source });
    // The target moves on; a branch from it, merged into the source, brings that commit and its own.
    await commitFile(project, 'main', `m-${run}.txt`, 'm\n');
    const onMain = (await branch(project, 'main')).commit.id;
    const feature = await branchWith(project, `f-${run}.txt`, 'f\n');
    const ownCommit = (await branch(project, feature)).commit.id;
    const inner = await createMr(project, { source_branch: feature, target_branch: source });
    const merged = await send<MergeRequest>('developer', 'PUT', `${oneOf(project, inner.iid)}/merge`, 200);
    const mergeCommit = merged.merge_commit_sha ?? '';
    const projectPath = (await send<Project>('developer', 'GET', `/projects/${project}`, 200))
      .path_with_namespace;
    const [note, ...others] = await systemNotes(project, mr.iid);
    expect(others).toEqual([]);
    const [heading, list, link] = (note ?? '').split('\n\n');
    expect(heading).toBe('added 3 commits');
    // GitLab escapes the titles (content_tag): the merge commit's quotes too.
    expect(list).toMatch(/^<ul>(<li>[^<]*(<code>[^<]*<\/code>)?<\/li>){3}<\/ul>$/);
    expect(list).toContain(`<li>${onMain.slice(0, 8)} - 1 commit from branch <code>main</code></li>`);
    expect(list).toContain(`<li>${ownCommit.slice(0, 8)} - Write f-${run}.txt</li>`);
    expect(list).toContain(
      `<li>${mergeCommit.slice(0, 8)} - Merge branch &#39;${feature}&#39; into &#39;${source}&#39;</li>`,
    );
    expect(link).toBe(
      `[Compare with previous version](/${projectPath}/-/merge_requests/${mr.iid}/diffs?start_sha=${before})`,
    );
  });

  it('checks the mergeability again after a commit on the target branch', async () => {
    const file = `target-${run}.txt`;
    const source = await branchWith(project, file, 'theirs\n');
    const mr = await createMr(project, { source_branch: source });
    expect(mr).toMatchObject({ merge_status: 'can_be_merged', has_conflicts: false });
    await commitFile(project, 'main', file, 'ours\n');
    expect(await read(mr.iid)).toMatchObject({
      merge_status: 'cannot_be_merged',
      has_conflicts: true,
      detailed_merge_status: 'broken_status',
    });
    await send('developer', 'PUT', mergePath(mr.iid), 406);
  });

  it('is merged when its head commit reaches the target branch another way, with that merge commit', async () => {
    const source = await branchWith(project, 'outside.txt', 'outside\n');
    const mr = await createMr(project, { source_branch: source });
    // A second branch on top of the first, merged through its own merge request, brings the first's head.
    const wider = unique('wider');
    await send('developer', 'POST', `/projects/${project}/repository/branches`, 201, {
      json: { branch: wider, ref: source },
    });
    await commitFile(project, wider, 'wider.txt', 'wider\n');
    const carrier = await createMr(project, { source_branch: wider });
    const carried = await send<MergeRequest>('developer', 'PUT', mergePath(carrier.iid), 200);
    const refreshed = await read(mr.iid);
    expect(refreshed).toMatchObject({ state: 'merged', merge_commit_sha: carried.merge_commit_sha });
    expect(refreshed.merged_by?.id).toBe(users.developer.id);
    expect(await systemNotes(project, mr.iid)).toEqual(['merged']);
  });

  it('is closed when its source branch is deleted', async () => {
    const source = await branchWith(project, 'gone.txt', 'gone\n');
    const mr = await createMr(project, { source_branch: source });
    await send('developer', 'DELETE', `/projects/${project}/repository/branches/${enc(source)}`, 204);
    const closed = await read(mr.iid);
    expect(closed).toMatchObject({ state: 'closed' });
    expect(closed.closed_by?.id).toBe(users.developer.id);
    expect(await systemNotes(project, mr.iid)).toEqual(['closed']);
  });
});

describe('pipelines: merge_when_pipeline_succeeds and only_allow_merge_if_pipeline_succeeds', () => {
  let project: string;
  beforeAll(async () => {
    project = await newProject();
  }, 60_000);
  const mergePath = (iid: number) => `${oneOf(project, iid)}/merge`;
  const read = (iid: number) => send<MergeRequest>('developer', 'GET', oneOf(project, iid), 200);
  const CI_FILE = '.collab-ci.yml';
  const PASSES = 'ok:\n  script: x\n';
  const FAILS = 'broken:\n  script: x\n  outcome: failed\n';
  // Long enough (declared seconds, scaled on the local server) to set the automatic merge while it runs.
  // The four tests that wait for such a pipeline run at once (it.concurrent, each with its own branch and
  // merge request; only the first merges into main): their waits overlap instead of adding up. Each file
  // says whose it is, so that their commits differ: one commit on two branches made in the same second would
  // be one object, and the first merge would bring the other merge requests' head commit into main.
  const slow = () => `slow:\n  script: sleep\n  duration: 800\n# ${unique('slow')}\n`;

  type Pipeline = components['schemas']['Pipeline'];
  const startPipeline = (ref: string) =>
    send<Pipeline>('developer', 'POST', `/projects/${project}/pipeline`, 201, { json: { ref } });
  async function finished(pipelineId: number): Promise<Pipeline> {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const pipeline = await send<Pipeline>(
        'developer',
        'GET',
        `/projects/${project}/pipelines/${pipelineId}`,
        200,
      );
      if (['success', 'failed', 'canceled', 'skipped', 'manual'].includes(pipeline.status)) return pipeline;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`pipeline ${pipelineId} did not finish`);
  }
  async function until(iid: number, done: (mr: MergeRequest) => boolean): Promise<MergeRequest> {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const mr = await read(iid);
      if (done(mr)) return mr;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`merge request !${iid} did not change`);
  }

  it('merges only after a successful head pipeline where the project says so (405 before)', async () => {
    const own = await newProject();
    await send('owner', 'PUT', `/projects/${own}`, 200, {
      json: { only_allow_merge_if_pipeline_succeeds: true },
    });
    const source = await branchWith(own, CI_FILE, FAILS);
    const mr = await createMr(own, { source_branch: source });
    expect((await send<MergeRequest>('developer', 'GET', oneOf(own, mr.iid), 200)).head_pipeline).toBeNull();
    await send('developer', 'PUT', `${oneOf(own, mr.iid)}/merge`, 405);
    const failed = await send<Pipeline>('developer', 'POST', `/projects/${own}/pipeline`, 201, {
      json: { ref: source },
    });
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const now = await send<MergeRequest>('developer', 'GET', oneOf(own, mr.iid), 200);
      if (now.head_pipeline?.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const withFailed = await send<MergeRequest>('developer', 'GET', oneOf(own, mr.iid), 200);
    expect(withFailed.head_pipeline).toMatchObject({
      id: failed.id,
      status: 'failed',
      sha: mr.sha,
      ref: source,
    });
    await send('developer', 'PUT', `${oneOf(own, mr.iid)}/merge`, 405);

    await commitFile(own, source, CI_FILE, PASSES);
    const head = (await branch(own, source)).commit.id;
    const passed = await send<Pipeline>('developer', 'POST', `/projects/${own}/pipeline`, 201, {
      json: { ref: source },
    });
    let seen: MergeRequest | undefined;
    for (let attempt = 0; attempt < 600 && seen?.head_pipeline?.status !== 'success'; attempt += 1) {
      seen = await send<MergeRequest>('developer', 'GET', oneOf(own, mr.iid), 200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen?.head_pipeline).toMatchObject({ id: passed.id, status: 'success', sha: head });
    // In the shape of a pipeline's own read (GitLab's Entities::Ci::Pipeline), the deprecated `pipeline`
    // in PipelineBasic's.
    const read = await send<Pipeline>('developer', 'GET', `/projects/${own}/pipelines/${passed.id}`, 200);
    expect(seen?.head_pipeline).toEqual(read);
    expect(read).toMatchObject({ user: { id: users.developer.id }, detailed_status: { group: 'success' } });
    expect(seen?.pipeline).toEqual({
      id: read.id,
      iid: read.iid,
      project_id: read.project_id,
      source: read.source,
      status: read.status,
      ref: read.ref,
      sha: read.sha,
      web_url: read.web_url,
      created_at: read.created_at,
      updated_at: read.updated_at,
    });
    const merged = await send<MergeRequest>('developer', 'PUT', `${oneOf(own, mr.iid)}/merge`, 200);
    expect(merged).toMatchObject({ state: 'merged', sha: head });
  }, 120_000);

  it('merges at once with auto_merge when the head pipeline already succeeded', async () => {
    const source = await branchWith(project, CI_FILE, PASSES);
    const mr = await createMr(project, { source_branch: source });
    expect((await finished((await startPipeline(source)).id)).status).toBe('success');
    const merged = await send<MergeRequest>('developer', 'PUT', mergePath(mr.iid), 200, {
      json: { auto_merge: true },
    });
    expect(merged.state).toBe('merged');
  }, 120_000);

  it.concurrent('sets the merge for when the running head pipeline succeeds, then merges as the user who set it', async () => {
    const source = await branchWith(project, CI_FILE, slow());
    const mr = await createMr(project, { source_branch: source });
    // No head pipeline: nothing to wait for.
    await send('developer', 'PUT', mergePath(mr.iid), 405, { json: { merge_when_pipeline_succeeds: true } });
    const pipeline = await startPipeline(source);
    const set = await send<MergeRequest>('developer', 'PUT', mergePath(mr.iid), 200, {
      json: { merge_when_pipeline_succeeds: true, should_remove_source_branch: true },
    });
    expect(set).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merged_by: null });
    expect(set.merge_user?.id).toBe(users.developer.id);
    expect(set.head_pipeline?.id).toBe(pipeline.id);
    expect(['created', 'pending', 'running']).toContain(set.head_pipeline?.status);
    const enabled = `enabled an automatic merge when the pipeline for ${mr.sha} succeeds`;
    expect(await systemNotes(project, mr.iid)).toEqual([enabled]);
    // Set again: noted once.
    await send('developer', 'PUT', mergePath(mr.iid), 200, { json: { merge_when_pipeline_succeeds: true } });
    expect(await systemNotes(project, mr.iid)).toEqual([enabled]);

    expect((await finished(pipeline.id)).status).toBe('success');
    const merged = await until(mr.iid, (one) => one.state === 'merged');
    expect(merged).toMatchObject({ merge_when_pipeline_succeeds: false, sha: mr.sha });
    expect(merged.merged_by?.id).toBe(users.developer.id);
    expect((await branch(project, 'main')).commit.id).toBe(merged.merge_commit_sha);
    await send('developer', 'GET', `/projects/${project}/repository/branches/${enc(source)}`, 404);
    expect(await systemNotes(project, mr.iid)).toEqual([enabled, 'merged']);
  }, 120_000);

  it.concurrent('cancels the automatic merge when the source branch moves on', async () => {
    const source = await branchWith(project, CI_FILE, slow());
    const mr = await createMr(project, { source_branch: source });
    const pipeline = await startPipeline(source);
    await send('developer', 'PUT', mergePath(mr.iid), 200, { json: { merge_when_pipeline_succeeds: true } });
    await commitFile(project, source, 'later.txt', 'later\n');
    const moved = await read(mr.iid);
    expect(moved).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false, merge_user: null });
    expect(moved.merge_error).toMatch(/source branch was updated/);
    const notes = await systemNotes(project, mr.iid);
    expect(notes.slice(0, 2)).toEqual([
      `enabled an automatic merge when the pipeline for ${mr.sha} succeeds`,
      'aborted the automatic merge because source branch was updated',
    ]);
    expect(notes[2]).toMatch(
      new RegExp(`^added 1 commit\n\n<ul><li>${moved.sha?.slice(0, 8)} - Write later.txt</li></ul>`),
    );
    expect(moved.head_pipeline).toBeNull();
    expect((await finished(pipeline.id)).status).toBe('success');
    // The old head's pipeline succeeding merges nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await read(mr.iid)).state).toBe('opened');
  }, 120_000);

  it.concurrent('aborts the automatic merge when the merge request is closed', async () => {
    const source = await branchWith(project, CI_FILE, slow());
    const mr = await createMr(project, { source_branch: source });
    const pipeline = await startPipeline(source);
    await send('developer', 'PUT', mergePath(mr.iid), 200, { json: { merge_when_pipeline_succeeds: true } });
    const closed = await send<MergeRequest>('developer', 'PUT', oneOf(project, mr.iid), 200, {
      json: { state_event: 'close' },
    });
    expect(closed).toMatchObject({ state: 'closed', merge_when_pipeline_succeeds: false, merge_user: null });
    expect(await systemNotes(project, mr.iid)).toEqual([
      `enabled an automatic merge when the pipeline for ${mr.sha} succeeds`,
      'closed',
      'aborted the automatic merge because merge request was closed',
    ]);
    // Reopened, it stays without one: the pipeline's success merges nothing.
    await send('developer', 'PUT', oneOf(project, mr.iid), 200, { json: { state_event: 'reopen' } });
    expect((await finished(pipeline.id)).status).toBe('success');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await read(mr.iid)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false });
  }, 120_000);

  it.concurrent('cancels the automatic merge on request: those who may merge or the author (the role matrix)', async () => {
    const source = await branchWith(project, CI_FILE, slow());
    const mr = await createMr(project, { source_branch: source });
    const pipeline = await startPipeline(source);
    const cancel = `${oneOf(project, mr.iid)}/cancel_merge_when_pipeline_succeeds`;
    // Nothing to cancel yet.
    await send('maintainer', 'POST', cancel, 405);
    await send('developer', 'PUT', mergePath(mr.iid), 200, { json: { merge_when_pipeline_succeeds: true } });
    for (const [caller, status] of [
      ['anonymous', 401],
      ['invalid', 401],
      ['outsider', 401],
      ['guest', 401],
      ['reporter', 401],
      ['developerReadRepository', 403],
    ] as const)
      await send(caller, 'POST', cancel, status);
    await send('maintainer', 'POST', `${oneOf(project, 999_999)}/cancel_merge_when_pipeline_succeeds`, 404);
    const canceled = await send<MergeRequest>('maintainer', 'POST', cancel, 201);
    expect(canceled).toMatchObject({
      state: 'opened',
      merge_when_pipeline_succeeds: false,
      merge_user: null,
    });
    await send('maintainer', 'POST', cancel, 405);
    expect(await systemNotes(project, mr.iid)).toEqual([
      `enabled an automatic merge when the pipeline for ${mr.sha} succeeds`,
      'canceled the automatic merge',
    ]);
    // The author (the developer here) may cancel too.
    await send('developer', 'PUT', mergePath(mr.iid), 200, { json: { merge_when_pipeline_succeeds: true } });
    await send('developer', 'POST', cancel, 201);
    expect((await finished(pipeline.id)).status).toBe('success');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await read(mr.iid)).state).toBe('opened');
  }, 120_000);

  it('merges on a skipped head pipeline only where allow_merge_on_skipped_pipeline says so', async () => {
    const own = await newProject({ only_allow_merge_if_pipeline_succeeds: true });
    const settings = await send<Project>('owner', 'GET', `/projects/${own}`, 200);
    expect(settings).toMatchObject({
      only_allow_merge_if_pipeline_succeeds: true,
      allow_merge_on_skipped_pipeline: false,
    });
    const source = await branchWith(own, CI_FILE, 'skip:\n  script: x\n  outcome: skipped\n');
    const mr = await createMr(own, { source_branch: source });
    const skipped = await send<Pipeline>('developer', 'POST', `/projects/${own}/pipeline`, 201, {
      json: { ref: source },
    });
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const now = await send<Pipeline>('developer', 'GET', `/projects/${own}/pipelines/${skipped.id}`, 200);
      if (now.status === 'skipped') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(
      (await send<MergeRequest>('developer', 'GET', oneOf(own, mr.iid), 200)).head_pipeline?.status,
    ).toBe('skipped');
    await send('developer', 'PUT', `${oneOf(own, mr.iid)}/merge`, 405);
    // A project setting: maintainers and owners change it, developers may not (403).
    await send('developer', 'PUT', `/projects/${own}`, 403, {
      json: { allow_merge_on_skipped_pipeline: true },
    });
    const changed = await send<Project>('maintainer', 'PUT', `/projects/${own}`, 200, {
      json: { allow_merge_on_skipped_pipeline: true },
    });
    expect(changed.allow_merge_on_skipped_pipeline).toBe(true);
    const merged = await send<MergeRequest>('developer', 'PUT', `${oneOf(own, mr.iid)}/merge`, 200);
    expect(merged.state).toBe('merged');
  }, 120_000);
});

describe('a merge that crashed while the merge request was locked', () => {
  // The fixtures hold two merge requests `locked` without a lock time, as a merge that died half-way leaves
  // them: one whose source is already in the target (the merge got as far as git), one whose source is not.
  let local: Target | undefined;
  beforeAll(async () => {
    if (!againstSuiteServer()) return;
    const server = await startLocalServer({
      fixtures: (demo) => ({
        ...demo,
        projects: demo.projects.map((project) =>
          project.path === 'website'
            ? {
                ...project,
                merge_requests: [
                  ...(project.merge_requests ?? []),
                  {
                    title: 'Crashed after git',
                    author: 'developer',
                    source_branch: 'feature/merged-already',
                    state: 'locked',
                  },
                  {
                    title: 'Crashed before git',
                    author: 'developer',
                    source_branch: 'develop',
                    state: 'locked',
                  },
                ],
              }
            : project,
        ),
      }),
    });
    local = targetFor(demoConfig(server.baseUrl), server);
  }, 60_000);
  afterAll(async () => {
    await local?.close();
  });

  it.skipIf(!againstSuiteServer())(
    'is released at start, before any read: merged if git merged it, else opened again and mergeable',
    async () => {
      if (!local) throw new Error('no local server');
      const server = local;
      const project = enc(server.config.fixtures.publicProject);
      const listed = async (state: string) =>
        (
          await callAs<MergeRequest[]>(server, 'maintainer', `/projects/${project}/merge_requests`, {
            query: { state, per_page: '100' },
          })
        ).body;
      const crashed = (mrs: MergeRequest[]) => mrs.filter((mr) => mr.title.startsWith('Crashed '));
      // Lists release nothing themselves (a single read or a merge attempt would): the start's sweep does.
      for (let attempt = 0; attempt < 200 && crashed(await listed('locked')).length > 0; attempt += 1)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(crashed(await listed('locked'))).toEqual([]);
      const afterGit = crashed(await listed('merged')).find((mr) => mr.title === 'Crashed after git');
      const beforeGit = crashed(await listed('opened')).find((mr) => mr.title === 'Crashed before git');
      // Git had merged it: merged, with the commit that brought its head.
      expect(afterGit).toMatchObject({ state: 'merged', merge_commit_sha: afterGit?.sha });
      if (!afterGit || !beforeGit) throw new Error('the crashed merge requests were not released');

      const mergePath = (iid: number) => `/projects/${project}/merge_requests/${iid}/merge`;
      const already = await callAs<ErrorBody>(server, 'maintainer', mergePath(afterGit.iid), {
        method: 'PUT',
      });
      expect(already.status).toBe(405);
      // Git had not merged it: open again, and a merge now merges it.
      const merged = await callAs<MergeRequest>(server, 'maintainer', mergePath(beforeGit.iid), {
        method: 'PUT',
      });
      expect(merged.status).toBe(200);
      expect(merged.body).toMatchObject({ state: 'merged' });
      expect(merged.body.merged_by?.id).toBe(users.maintainer.id);
    },
  );
});
