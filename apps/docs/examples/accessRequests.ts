// The Access requests operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the access requests of a group */
export async function listGroupAccessRequests() {
  // #region listGroupAccessRequests
  for await (const accessRequest of api.paginate(() =>
    api.GET('/groups/{id}/access_requests', {
      params: { path: { id: 'my-group' } },
    }),
  )) {
    console.log(accessRequest.name, accessRequest.username);
  }
  // #endregion
}

/** Request access to a group */
export async function requestGroupAccess() {
  // #region requestGroupAccess
  const accessRequest = await unwrap(
    api.POST('/groups/{id}/access_requests', {
      params: { path: { id: 'my-group' } },
    }),
  );
  console.log(accessRequest.name, accessRequest.username);
  // #endregion
}

/** Deny an access request to a group */
export async function denyGroupAccessRequest() {
  // #region denyGroupAccessRequest
  await unwrap(
    api.DELETE('/groups/{id}/access_requests/{user_id}', {
      params: { path: { id: 'my-group', user_id: 5 } },
    }),
  );
  // #endregion
}

/** Approve an access request to a group */
export async function approveGroupAccessRequest() {
  // #region approveGroupAccessRequest
  const accessRequestMember = await unwrap(
    api.PUT('/groups/{id}/access_requests/{user_id}/approve', {
      params: { path: { id: 'my-group', user_id: 5 } },
      body: { access_level: 10 },
    }),
  );
  console.log(accessRequestMember.name, accessRequestMember.username);
  // #endregion
}

/** List the access requests of a project */
export async function listProjectAccessRequests() {
  // #region listProjectAccessRequests
  for await (const accessRequest of api.paginate(() =>
    api.GET('/projects/{id}/access_requests', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(accessRequest.name, accessRequest.username);
  }
  // #endregion
}

/** Request access to a project */
export async function requestProjectAccess() {
  // #region requestProjectAccess
  const accessRequest = await unwrap(
    api.POST('/projects/{id}/access_requests', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  console.log(accessRequest.name, accessRequest.username);
  // #endregion
}

/** Deny an access request to a project */
export async function denyProjectAccessRequest() {
  // #region denyProjectAccessRequest
  await unwrap(
    api.DELETE('/projects/{id}/access_requests/{user_id}', {
      params: { path: { id: 'my-group/my-project', user_id: 5 } },
    }),
  );
  // #endregion
}

/** Approve an access request to a project */
export async function approveProjectAccessRequest() {
  // #region approveProjectAccessRequest
  const accessRequestMember = await unwrap(
    api.PUT('/projects/{id}/access_requests/{user_id}/approve', {
      params: { path: { id: 'my-group/my-project', user_id: 5 } },
      body: { access_level: 10 },
    }),
  );
  console.log(accessRequestMember.name, accessRequestMember.username);
  // #endregion
}
