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

/** Create a group */
export async function createGroup() {
  // #region createGroup
  const group = await unwrap(
    api.POST('/groups', {
      body: {
        name: 'My Subgroup',
        path: 'my-subgroup',
        parent_id: 2,
        visibility: 'private',
        description: "A team's group.",
      },
    }),
  );
  console.log(group.web_url, group.full_path);
  // #endregion
}

/** Update a group */
export async function editGroup() {
  // #region editGroup
  const group = await unwrap(
    api.PUT('/groups/{id}', {
      params: { path: { id: 'my-group/my-subgroup' } },
      body: { description: 'The renamed group.', visibility: 'internal' },
    }),
  );
  console.log(group.web_url, group.visibility);
  // #endregion
}

/** Delete a group */
export async function deleteGroup() {
  // #region deleteGroup
  const answer = await unwrap(
    api.DELETE('/groups/{id}', {
      params: { path: { id: 'my-group/my-subgroup' } },
    }),
  );
  console.log(answer.message);
  // #endregion
}
