// The Merge requests operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the merge requests of a project */
export async function listProjectMergeRequests() {
  // #region listProjectMergeRequests
  for await (const mergeRequest of api.paginate(() =>
    api.GET('/projects/{id}/merge_requests', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(mergeRequest.web_url, mergeRequest.title);
  }
  // #endregion
}

/** Get a merge request */
export async function getProjectMergeRequest() {
  // #region getProjectMergeRequest
  try {
    const mergeRequest = await unwrap(
      api.GET('/projects/{id}/merge_requests/{merge_request_iid}', {
        params: { path: { id: 'my-group/my-project', merge_request_iid: 7 } },
      }),
    );
    console.log(mergeRequest.web_url, mergeRequest.title);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}
