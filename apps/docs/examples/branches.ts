// The Branches operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List repository branches */
export async function listBranches() {
  // #region listBranches
  for await (const branch of api.paginate(() =>
    api.GET('/projects/{id}/repository/branches', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(branch.web_url, branch.name);
  }
  // #endregion
}

/** Create a branch */
export async function createBranch() {
  // #region createBranch
  const branch = await unwrap(
    api.POST('/projects/{id}/repository/branches', {
      params: { path: { id: 'my-group/my-project' } },
      body: { branch: 'feature/login', ref: 'main' },
    }),
  );
  console.log(branch.web_url, branch.name);
  // #endregion
}

/** Get a branch */
export async function getBranch() {
  // #region getBranch
  try {
    const branch = await unwrap(
      api.GET('/projects/{id}/repository/branches/{branch}', {
        params: {
          path: { id: 'my-group/my-project', branch: 'feature/login' },
        },
      }),
    );
    console.log(branch.web_url, branch.name);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Delete a branch */
export async function deleteBranch() {
  // #region deleteBranch
  await unwrap(
    api.DELETE('/projects/{id}/repository/branches/{branch}', {
      params: { path: { id: 'my-group/my-project', branch: 'feature/login' } },
    }),
  );
  // #endregion
}

/** Delete merged branches */
export async function deleteMergedBranches() {
  // #region deleteMergedBranches
  const result = await unwrap(
    api.DELETE('/projects/{id}/repository/merged_branches', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  console.log(result.message);
  // #endregion
}
