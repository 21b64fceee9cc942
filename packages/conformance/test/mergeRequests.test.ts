// Project merge requests (GitLab v4): list with its filters and pagination, read one, and the 401/403/404
// matrix of every role. The API cannot create merge requests: the file reads those of the fixtures (see
// `publicProject` in src/config.ts), so it changes nothing and runs the same on a shared server.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureUser, openTarget, type Role, type Target } from '../src/index.js';
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
