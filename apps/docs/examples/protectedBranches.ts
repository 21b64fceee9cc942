// The Protected branches operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List protected branches */
export async function listProtectedBranches() {
  // #region listProtectedBranches
  for await (const protectedBranch of api.paginate(() =>
    api.GET('/projects/{id}/protected_branches', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(protectedBranch.name, protectedBranch.id);
  }
  // #endregion
}

/** Protect a branch or wildcard */
export async function protectBranch() {
  // #region protectBranch
  try {
    const protectedBranch = await unwrap(
      api.POST('/projects/{id}/protected_branches', {
        params: { path: { id: 'my-group/my-project' } },
        body: {
          name: 'release-*',
          push_access_level: 40,
          merge_access_level: 30,
        },
      }),
    );
    console.log(protectedBranch.name, protectedBranch.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 409)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Get a protected branch or wildcard */
export async function getProtectedBranch() {
  // #region getProtectedBranch
  try {
    const protectedBranch = await unwrap(
      api.GET('/projects/{id}/protected_branches/{name}', {
        params: { path: { id: 'my-group/my-project', name: 'release-*' } },
      }),
    );
    console.log(protectedBranch.name, protectedBranch.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update a protected branch's options */
export async function updateProtectedBranch() {
  // #region updateProtectedBranch
  const protectedBranch = await unwrap(
    api.PATCH('/projects/{id}/protected_branches/{name}', {
      params: { path: { id: 'my-group/my-project', name: 'release-*' } },
      body: { code_owner_approval_required: false },
    }),
  );
  console.log(protectedBranch.name, protectedBranch.id);
  // #endregion
}

/** Unprotect a branch or wildcard */
export async function unprotectBranch() {
  // #region unprotectBranch
  await unwrap(
    api.DELETE('/projects/{id}/protected_branches/{name}', {
      params: { path: { id: 'my-group/my-project', name: 'release-*' } },
    }),
  );
  // #endregion
}
