// The Personal access tokens operations as @collab/client calls them: each region is the code sample the
// reference docs show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** Create a personal access token for a user */
export async function createUserPersonalAccessToken() {
  // #region createUserPersonalAccessToken
  const made = await unwrap(
    api.POST('/users/{user_id}/personal_access_tokens', {
      params: { path: { user_id: 9 } },
      body: {
        name: 'ci-reader',
        scopes: ['read_api'],
        expires_at: '2027-11-28',
      },
    }),
  );
  // The token string is answered only this once: keep it now.
  const asUser = createCollabClient({
    baseUrl: 'http://localhost:3000',
    token: made.token,
  });
  const me = await unwrap(asUser.GET('/user'));
  console.log(`token ${made.id} acts as ${me.username}`);
  // #endregion
}

/** List personal access tokens */
export async function listPersonalAccessTokens() {
  // #region listPersonalAccessTokens
  for await (const token of api.paginate(() =>
    api.GET('/personal_access_tokens', {
      params: { query: { state: 'active' } },
    }),
  )) {
    console.log(token.id, token.name, token.scopes.join(','), token.expires_at);
  }
  // #endregion
}

/** Get a personal access token */
export async function getPersonalAccessToken() {
  // #region getPersonalAccessToken
  const token = await unwrap(
    api.GET('/personal_access_tokens/{id}', { params: { path: { id: 12 } } }),
  );
  console.log(token.name, token.active ? 'active' : 'inactive');
  // #endregion
}

/** Revoke a personal access token */
export async function revokePersonalAccessToken() {
  // #region revokePersonalAccessToken
  await unwrap(
    api.DELETE('/personal_access_tokens/{id}', {
      params: { path: { id: 12 } },
    }),
  );
  // #endregion
}

/** Get the token of the request */
export async function getCurrentPersonalAccessToken() {
  // #region getCurrentPersonalAccessToken
  const token = await unwrap(api.GET('/personal_access_tokens/self'));
  console.log(`this token expires on ${token.expires_at ?? 'no date'}`);
  // #endregion
}

/** Revoke the token of the request */
export async function revokeCurrentPersonalAccessToken() {
  // #region revokeCurrentPersonalAccessToken
  await unwrap(api.DELETE('/personal_access_tokens/self'));
  // #endregion
}

/** Create a personal access token for the current user */
export async function createCurrentUserPersonalAccessToken() {
  // #region createCurrentUserPersonalAccessToken
  // GitLab allows only the k8s_proxy scope here; the token expires tomorrow unless expires_at says otherwise.
  const made = await unwrap(
    api.POST('/user/personal_access_tokens', {
      body: { name: 'kubernetes', scopes: ['k8s_proxy'] },
    }),
  );
  console.log(`keep it now, it is shown once: ${made.token}`);
  // #endregion
}
