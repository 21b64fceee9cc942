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
