// The SCIM operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { createScimClient, unwrap } from '@collab/client';

const scim = createScimClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.SCIM_TOKEN ?? '',
});
// #endregion

/** List SCIM-provisioned users */
export async function listScimUsers() {
  // #region listScimUsers
  const scimUserList = await unwrap(
    scim.GET('/groups/{group_path}/Users', {
      params: { path: { group_path: 'my-group' } },
    }),
  );
  console.log(`${scimUserList.totalResults} users`);
  for (const user of scimUserList.Resources)
    console.log(user.userName, user.active);
  // #endregion
}

/** Provision a user */
export async function createScimUser() {
  // #region createScimUser
  const scimUser = await unwrap(
    scim.POST('/groups/{group_path}/Users', {
      params: { path: { group_path: 'my-group' } },
      body: {
        externalId: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0',
        userName: 'ada.lovelace',
        emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
        name: { givenName: 'Ada', familyName: 'Lovelace' },
      },
    }),
  );
  console.log(scimUser.id, scimUser.active);
  // #endregion
}

/** Get a SCIM-provisioned user */
export async function getScimUser() {
  // #region getScimUser
  const scimUser = await unwrap(
    scim.GET('/groups/{group_path}/Users/{id}', {
      params: {
        path: {
          group_path: 'my-group',
          id: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0',
        },
      },
    }),
  );
  console.log(scimUser.id, scimUser.active);
  // #endregion
}

/** Update a SCIM-provisioned user */
export async function updateScimUser() {
  // #region updateScimUser
  await unwrap(
    scim.PATCH('/groups/{group_path}/Users/{id}', {
      params: {
        path: {
          group_path: 'my-group',
          id: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0',
        },
      },
      // Deprovisions the user: removes the SSO identity.
      body: { Operations: [{ op: 'Replace', path: 'active', value: false }] },
    }),
  );
  // #endregion
}

/** Deprovision a user */
export async function deleteScimUser() {
  // #region deleteScimUser
  await unwrap(
    scim.DELETE('/groups/{group_path}/Users/{id}', {
      params: {
        path: {
          group_path: 'my-group',
          id: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0',
        },
      },
    }),
  );
  // #endregion
}
