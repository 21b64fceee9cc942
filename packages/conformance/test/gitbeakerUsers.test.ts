// gitbeaker (@gitbeaker/rest 43.8) against the users and tokens an administrator makes: Users.create, edit,
// remove (with hardDelete), block and unblock, Users.createPersonalAccessToken, and PersonalAccessTokens create, all, show and
// remove (by ID and `self`), called as gitbeaker's documentation shows them; then gitbeaker as the new user,
// with the token it was given (`token`: PRIVATE-TOKEN, and `oauthToken`: Authorization: Bearer), as a client's
// own test suite sets itself up. gitbeaker sends the options as a JSON body in snake_case (also on DELETE).
// Every response of the API also goes through the suite's validating fetch.
//
// The file makes users of this run (names with RUN) and deletes them.
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { type Api, gitbeakerClients, refusal, validateGlobalFetch } from './gitbeakerSupport.js';

let target: Target;
const as = gitbeakerClients(() => target);
let restoreFetch = () => {};

/** The users this file made and has not deleted yet (deleted in afterAll). */
const madeUsers = new Set<number>();

beforeAll(async () => {
  target = await openTarget();
  restoreFetch = validateGlobalFetch(target);
});
afterAll(async () => {
  for (const id of madeUsers) await as('admin').Users.remove(id);
  restoreFetch();
  await target?.close();
});

let count = 0;
async function createUser(options: Record<string, unknown> = {}) {
  count += 1;
  const username = `gb${RUN}n${count}`;
  const user = await as('admin').Users.create({
    email: `${username}@example.com`,
    username,
    name: `Gitbeaker ${count} ${RUN}`,
    password: 'correct-horse-battery',
    skipConfirmation: true,
    ...options,
  });
  madeUsers.add(user.id);
  return user;
}

describe('Users', () => {
  it('creates a user with camelCase options (sent in snake_case) and edits it', async () => {
    const user = await createUser({ canCreateGroup: false, projectsLimit: 5, bio: `Bio ${RUN}` });
    expect(user).toMatchObject({
      username: `gb${RUN}n${count}`,
      can_create_group: false,
      projects_limit: 5,
      bio: `Bio ${RUN}`,
      is_admin: false,
    });
    // Users.edit sends a multipart form (for the avatar) and, unlike its JSON bodies, keeps the option names
    // as given: snake_case names change the fields, and a camelCase one is an unknown field, ignored as GitLab
    // ignores it.
    const edited = await as('admin').Users.edit(user.id, {
      name: `Edited ${RUN}`,
      projects_limit: 9,
      canCreateGroup: true,
    } as Parameters<Api['Users']['edit']>[1]);
    expect(edited).toMatchObject({
      id: user.id,
      name: `Edited ${RUN}`,
      projects_limit: 9,
      can_create_group: false,
      bio: `Bio ${RUN}`,
    });
    const shown = await as('admin').Users.show(user.id);
    expect(shown).toMatchObject({ name: `Edited ${RUN}`, projects_limit: 9 });
  });

  it("refuses others than administrators (403) and a taken username (409, GitLab's message)", async () => {
    const user = await createUser();
    const options = {
      email: `x${RUN}@example.com`,
      username: `x${RUN}`,
      name: 'X',
      password: 'correct-horse-battery',
    };
    expect((await refusal(as('developer').Users.create(options))).status).toBe(403);
    expect((await refusal(as('developer').Users.edit(user.id, { name: 'No' }))).status).toBe(403);
    expect((await refusal(as('developer').Users.remove(user.id))).status).toBe(403);
    expect(await refusal(as('admin').Users.create({ ...options, username: user.username }))).toEqual({
      status: 409,
      message: 'Username has already been taken',
    });
    expect(await refusal(as('admin').Users.create({ ...options, email: user.email }))).toEqual({
      status: 409,
      message: 'Email has already been taken',
    });
  });

  it('removes a user (also with hardDelete in the body); the user is gone', async () => {
    for (const options of [{}, { hardDelete: true }]) {
      const user = await createUser();
      await as('admin').Users.remove(user.id, options);
      madeUsers.delete(user.id);
      expect((await refusal(as('admin').Users.show(user.id))).status).toBe(404);
    }
  });
});

describe('personal access tokens', () => {
  it('makes a token with Users.createPersonalAccessToken and acts as the user with it, in both carriers', async () => {
    const user = await createUser();
    const made = await as('admin').Users.createPersonalAccessToken(user.id, `gitbeaker ${RUN}`, ['api'], {
      expiresAt: '2099-12-31',
    });
    expect(made).toMatchObject({ user_id: user.id, scopes: ['api'], expires_at: '2099-12-31', active: true });
    expect(typeof made.token).toBe('string');
    for (const api of [
      new Gitlab({ host: target.config.baseUrl, token: made.token as string }),
      new Gitlab({ host: target.config.baseUrl, oauthToken: made.token as string }),
    ]) {
      const me = await api.Users.showCurrentUser();
      expect(me).toMatchObject({ id: user.id, username: user.username });
      const self = await api.PersonalAccessTokens.show();
      expect(self).toMatchObject({ id: made.id, user_id: user.id });
      expect(self).not.toHaveProperty('token');
    }
  });

  it('lists, shows and revokes with PersonalAccessTokens (by ID and self)', async () => {
    const user = await createUser();
    const first = await as('admin').PersonalAccessTokens.create(user.id, `first ${RUN}`, ['read_api']);
    const second = await as('admin').PersonalAccessTokens.create(user.id, `second ${RUN}`, ['api']);
    const api = new Gitlab({ host: target.config.baseUrl, token: second.token as string });

    const own = await api.PersonalAccessTokens.all();
    expect(own.map((token) => token.id)).toEqual([first.id, second.id]);
    const byAdmin = await as('admin').PersonalAccessTokens.all({ userId: user.id });
    expect(byAdmin.map((token) => token.id)).toEqual([first.id, second.id]);
    expect(await api.PersonalAccessTokens.show({ tokenId: first.id })).toMatchObject({
      name: `first ${RUN}`,
    });
    expect((await refusal(as('developer').PersonalAccessTokens.show({ tokenId: first.id }))).status).toBe(
      401,
    );
    expect((await refusal(as('developer').PersonalAccessTokens.remove({ tokenId: first.id }))).status).toBe(
      400,
    );

    await api.PersonalAccessTokens.remove({ tokenId: first.id });
    const firstApi = new Gitlab({ host: target.config.baseUrl, token: first.token as string });
    expect((await refusal(firstApi.Users.showCurrentUser())).status).toBe(401);
    expect(await api.PersonalAccessTokens.all({ revoked: true })).toMatchObject([
      { id: first.id, revoked: true },
    ]);

    await api.PersonalAccessTokens.remove();
    expect((await refusal(api.Users.showCurrentUser())).status).toBe(401);
  });
});

describe('blocking', () => {
  it("blocks and unblocks with Users.block and Users.unblock; the blocked user's token gets 403", async () => {
    const user = await createUser();
    const made = await as('admin').Users.createPersonalAccessToken(user.id, `block ${RUN}`, ['api']);
    const api = new Gitlab({ host: target.config.baseUrl, token: made.token as string });
    expect(await as('admin').Users.block(user.id)).toBe(true);
    expect(await refusal(api.Users.showCurrentUser())).toEqual({
      status: 403,
      message: '403 Forbidden - Your account has been blocked.',
    });
    expect((await refusal(as('developer').Users.unblock(user.id))).status).toBe(403);
    expect(await as('admin').Users.unblock(user.id)).toBe(true);
    expect(await api.Users.showCurrentUser()).toMatchObject({ id: user.id, state: 'active' });
  });
});
