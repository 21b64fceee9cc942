// The Deploy keys operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List all deploy keys of the instance */
export async function listAllDeployKeys() {
  // #region listAllDeployKeys
  for await (const deployKeyInstance of api.paginate(() =>
    api.GET('/deploy_keys'),
  )) {
    console.log(deployKeyInstance.title, deployKeyInstance.key);
  }
  // #endregion
}

/** List a project's deploy keys */
export async function listProjectDeployKeys() {
  // #region listProjectDeployKeys
  for await (const deployKey of api.paginate(() =>
    api.GET('/projects/{id}/deploy_keys', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(deployKey.title, deployKey.key);
  }
  // #endregion
}

/** Add a deploy key to a project */
export async function addDeployKey() {
  // #region addDeployKey
  const deployKey = await unwrap(
    api.POST('/projects/{id}/deploy_keys', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        title: 'CI runner',
        key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHq3MGRtuSnD0bBO7Sn3hDRzWm5D8hYo5xYq9rQj2XKy ci@example.com',
        can_push: false,
      },
    }),
  );
  console.log(deployKey.title, deployKey.key);
  // #endregion
}

/** Get a project's deploy key */
export async function getDeployKey() {
  // #region getDeployKey
  try {
    const deployKey = await unwrap(
      api.GET('/projects/{id}/deploy_keys/{key_id}', {
        params: { path: { id: 'my-group/my-project', key_id: 13 } },
      }),
    );
    console.log(deployKey.title, deployKey.key);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update a project's deploy key */
export async function updateDeployKey() {
  // #region updateDeployKey
  const deployKey = await unwrap(
    api.PUT('/projects/{id}/deploy_keys/{key_id}', {
      params: { path: { id: 'my-group/my-project', key_id: 13 } },
      body: { can_push: true },
    }),
  );
  console.log(deployKey.title, deployKey.key);
  // #endregion
}

/** Remove a deploy key from a project */
export async function deleteDeployKey() {
  // #region deleteDeployKey
  await unwrap(
    api.DELETE('/projects/{id}/deploy_keys/{key_id}', {
      params: { path: { id: 'my-group/my-project', key_id: 13 } },
    }),
  );
  // #endregion
}

/** Enable a deploy key for a project */
export async function enableDeployKey() {
  // #region enableDeployKey
  const deployKey = await unwrap(
    api.POST('/projects/{id}/deploy_keys/{key_id}/enable', {
      params: { path: { id: 'my-group/my-project', key_id: 13 } },
    }),
  );
  console.log(deployKey.title, deployKey.key);
  // #endregion
}
