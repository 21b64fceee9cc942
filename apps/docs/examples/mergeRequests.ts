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

/** Cancel the merge when the pipeline succeeds */
export async function cancelMergeRequestAutoMerge() {
  // #region cancelMergeRequestAutoMerge
  const mergeRequest = await unwrap(
    api.POST(
      '/projects/{id}/merge_requests/{merge_request_iid}/cancel_merge_when_pipeline_succeeds',
      { params: { path: { id: 'my-group/my-project', merge_request_iid: 7 } } },
    ),
  );
  console.log(mergeRequest.merge_when_pipeline_succeeds); // false
  // #endregion
}

/** Create a merge request */
export async function createProjectMergeRequest() {
  // #region createProjectMergeRequest
  try {
    const mergeRequest = await unwrap(
      api.POST('/projects/{id}/merge_requests', {
        params: { path: { id: 'my-group/my-project' } },
        body: {
          source_branch: 'feature/login',
          target_branch: 'main',
          title: 'Add a login page',
          labels: 'feature',
          remove_source_branch: true,
        },
      }),
    );
    console.log(mergeRequest.web_url, mergeRequest.merge_status);
  } catch (error) {
    // 409: another open merge request has the same branches.
    if (error instanceof CollabApiError && error.status === 409)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update a merge request */
export async function updateProjectMergeRequest() {
  // #region updateProjectMergeRequest
  const mergeRequest = await unwrap(
    api.PUT('/projects/{id}/merge_requests/{merge_request_iid}', {
      params: { path: { id: 'my-group/my-project', merge_request_iid: 7 } },
      body: { title: 'Add a login page (v2)', add_labels: 'review' },
    }),
  );
  console.log(mergeRequest.web_url, mergeRequest.labels);
  // #endregion
}

/** Delete a merge request */
export async function deleteProjectMergeRequest() {
  // #region deleteProjectMergeRequest
  await unwrap(
    api.DELETE('/projects/{id}/merge_requests/{merge_request_iid}', {
      params: { path: { id: 'my-group/my-project', merge_request_iid: 7 } },
    }),
  );
  // #endregion
}

/** Merge a merge request */
export async function mergeProjectMergeRequest() {
  // #region mergeProjectMergeRequest
  try {
    const merged = await unwrap(
      api.PUT('/projects/{id}/merge_requests/{merge_request_iid}/merge', {
        params: { path: { id: 'my-group/my-project', merge_request_iid: 7 } },
        body: { should_remove_source_branch: true },
      }),
    );
    console.log(merged.state, merged.merge_commit_sha);
  } catch (error) {
    // 405: not mergeable in its state; 406: conflicts; 409: the source branch moved.
    if (
      error instanceof CollabApiError &&
      [405, 406, 409].includes(error.status)
    )
      console.log(error.status, error.body?.message);
    else throw error;
  }
  // #endregion
}
