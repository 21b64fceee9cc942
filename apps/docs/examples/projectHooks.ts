// The Project hooks operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the hooks of a project */
export async function listProjectHooks() {
  // #region listProjectHooks
  for await (const projectHook of api.paginate(() =>
    api.GET('/projects/{id}/hooks', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(projectHook.id);
  }
  // #endregion
}

/** Get a project hook */
export async function getProjectHook() {
  // #region getProjectHook
  try {
    const projectHook = await unwrap(
      api.GET('/projects/{id}/hooks/{hook_id}', {
        params: { path: { id: 'my-group/my-project', hook_id: 1 } },
      }),
    );
    console.log(projectHook.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}
