// The Groups operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List groups */
export async function listGroups() {
  // #region listGroups
  for await (const group of api.paginate(() => api.GET('/groups'))) {
    console.log(group.web_url, group.name);
  }
  // #endregion
}

/** Get a group */
export async function getGroup() {
  // #region getGroup
  try {
    const group = await unwrap(
      api.GET('/groups/{id}', { params: { path: { id: 'my-group' } } }),
    );
    console.log(group.full_path, group.web_url);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** List the subgroups of a group */
export async function listSubgroups() {
  // #region listSubgroups
  for await (const group of api.paginate(() =>
    api.GET('/groups/{id}/subgroups', { params: { path: { id: 'my-group' } } }),
  )) {
    console.log(group.web_url, group.name);
  }
  // #endregion
}

/** List the projects of a group */
export async function listGroupProjects() {
  // #region listGroupProjects
  for await (const item of api.paginate(() =>
    api.GET('/groups/{id}/projects', { params: { path: { id: 'my-group' } } }),
  )) {
    console.log(item.web_url, item.path_with_namespace);
  }
  // #endregion
}

/** List the projects shared with a group */
export async function listGroupSharedProjects() {
  // #region listGroupSharedProjects
  for await (const item of api.paginate(() =>
    api.GET('/groups/{id}/projects/shared', {
      params: { path: { id: 'my-group' } },
    }),
  )) {
    console.log(item.web_url, item.path_with_namespace);
  }
  // #endregion
}
