// The Users operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** Get the current user */
export async function getCurrentUser() {
  // #region getCurrentUser
  const me = await unwrap(api.GET('/user'));
  console.log(`signed in as ${me.username}`);
  // #endregion
}

/** List users */
export async function listUsers() {
  // #region listUsers
  for await (const user of api.paginate(() =>
    api.GET('/users', { params: { query: { search: 'ada' } } }),
  )) {
    console.log(user.username, user.web_url);
  }
  // #endregion
}

/** Get a user */
export async function getUser() {
  // #region getUser
  try {
    const user = await unwrap(
      api.GET('/users/{id}', { params: { path: { id: 4 } } }),
    );
    console.log(user.username, user.state);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Create a user */
export async function createUser() {
  // #region createUser
  const user = await unwrap(
    api.POST('/users', {
      body: {
        email: 'jane@example.com',
        username: 'jane',
        name: 'Jane Doe',
        password: 'correct-horse-battery',
        skip_confirmation: true,
      },
    }),
  );
  console.log(`made user ${user.id} (${user.username})`);
  // #endregion
}

/** Update a user */
export async function updateUser() {
  // #region updateUser
  const user = await unwrap(
    api.PUT('/users/{id}', {
      params: { path: { id: 9 } },
      body: { name: 'Jane Q. Doe', projects_limit: 10 },
    }),
  );
  console.log(user.name, user.projects_limit);
  // #endregion
}

/** Delete a user */
export async function deleteUser() {
  // #region deleteUser
  // Their issues, merge requests and notes stay, by the instance's ghost user.
  await unwrap(api.DELETE('/users/{id}', { params: { path: { id: 9 } } }));
  // #endregion
}

/** Block a user */
export async function blockUser() {
  // #region blockUser
  // true when blocked now, null when the user was blocked already; the user's tokens then get 403.
  const blocked = await unwrap(
    api.POST('/users/{id}/block', { params: { path: { id: 9 } } }),
  );
  console.log(blocked);
  // #endregion
}

/** Unblock a user */
export async function unblockUser() {
  // #region unblockUser
  // true when unblocked now, false when the user was not blocked.
  const unblocked = await unwrap(
    api.POST('/users/{id}/unblock', { params: { path: { id: 9 } } }),
  );
  console.log(unblocked);
  // #endregion
}
