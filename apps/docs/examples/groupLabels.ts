// The Group labels operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the labels of a group */
export async function listGroupLabels() {
  // #region listGroupLabels
  for await (const groupLabel of api.paginate(() =>
    api.GET('/groups/{id}/labels', { params: { path: { id: 'my-group' } } }),
  )) {
    console.log(groupLabel.name, groupLabel.id);
  }
  // #endregion
}

/** Create a group label */
export async function createGroupLabel() {
  // #region createGroupLabel
  try {
    const groupLabel = await unwrap(
      api.POST('/groups/{id}/labels', {
        params: { path: { id: 'my-group' } },
        body: {
          name: 'bug',
          color: '#d9534f',
          description: 'Something is broken',
        },
      }),
    );
    console.log(groupLabel.name, groupLabel.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 409)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update a group label by name (deprecated) */
export async function updateGroupLabelByName() {
  // #region updateGroupLabelByName
  const groupLabel = await unwrap(
    api.PUT('/groups/{id}/labels', {
      params: { path: { id: 'my-group' } },
      body: { name: 'bug', new_name: 'defect', color: '#d9534f' },
    }),
  );
  console.log(groupLabel.name, groupLabel.id);
  // #endregion
}

/** Delete a group label by name (deprecated) */
export async function deleteGroupLabelByName() {
  // #region deleteGroupLabelByName
  await unwrap(
    api.DELETE('/groups/{id}/labels', {
      params: { path: { id: 'my-group' } },
      body: { name: 'bug', description: 'Something does not work' },
    }),
  );
  // #endregion
}

/** Get a group label */
export async function getGroupLabel() {
  // #region getGroupLabel
  try {
    const groupLabel = await unwrap(
      api.GET('/groups/{id}/labels/{label_id}', {
        params: { path: { id: 'my-group', label_id: 'bug' } },
      }),
    );
    console.log(groupLabel.name, groupLabel.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update a group label */
export async function updateGroupLabel() {
  // #region updateGroupLabel
  const groupLabel = await unwrap(
    api.PUT('/groups/{id}/labels/{label_id}', {
      params: { path: { id: 'my-group', label_id: 'bug' } },
      body: { new_name: 'defect', color: '#d9534f' },
    }),
  );
  console.log(groupLabel.name, groupLabel.id);
  // #endregion
}

/** Delete a group label */
export async function deleteGroupLabel() {
  // #region deleteGroupLabel
  await unwrap(
    api.DELETE('/groups/{id}/labels/{label_id}', {
      params: { path: { id: 'my-group', label_id: 'bug' } },
    }),
  );
  // #endregion
}

/** Subscribe to a group label */
export async function subscribeGroupLabel() {
  // #region subscribeGroupLabel
  const groupLabel = await unwrap(
    api.POST('/groups/{id}/labels/{label_id}/subscribe', {
      params: { path: { id: 'my-group', label_id: 9 } },
    }),
  );
  console.log(groupLabel.name, groupLabel.id);
  // #endregion
}

/** Unsubscribe from a group label */
export async function unsubscribeGroupLabel() {
  // #region unsubscribeGroupLabel
  const groupLabel = await unwrap(
    api.POST('/groups/{id}/labels/{label_id}/unsubscribe', {
      params: { path: { id: 'my-group', label_id: 9 } },
    }),
  );
  console.log(groupLabel.name, groupLabel.id);
  // #endregion
}
