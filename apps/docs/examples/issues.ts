// The Issues operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the issues of a project */
export async function listProjectIssues() {
  // #region listProjectIssues
  for await (const issue of api.paginate(() =>
    api.GET('/projects/{id}/issues', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(issue.web_url, issue.title);
  }
  // #endregion
}

/** Create an issue */
export async function createProjectIssue() {
  // #region createProjectIssue
  const issue = await unwrap(
    api.POST('/projects/{id}/issues', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        title: 'Login fails with an SSO account',
        description: 'Steps to reproduce: …',
        labels: 'bug,auth',
      },
    }),
  );
  console.log(issue.web_url, issue.title);
  // #endregion
}

/** Get an issue */
export async function getProjectIssue() {
  // #region getProjectIssue
  try {
    const issue = await unwrap(
      api.GET('/projects/{id}/issues/{issue_iid}', {
        params: { path: { id: 'my-group/my-project', issue_iid: 11 } },
      }),
    );
    console.log(issue.web_url, issue.title);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update an issue */
export async function updateProjectIssue() {
  // #region updateProjectIssue
  const issue = await unwrap(
    api.PUT('/projects/{id}/issues/{issue_iid}', {
      params: { path: { id: 'my-group/my-project', issue_iid: 11 } },
      body: { state_event: 'close' },
    }),
  );
  console.log(issue.web_url, issue.title);
  // #endregion
}

/** Delete an issue */
export async function deleteProjectIssue() {
  // #region deleteProjectIssue
  await unwrap(
    api.DELETE('/projects/{id}/issues/{issue_iid}', {
      params: { path: { id: 'my-group/my-project', issue_iid: 11 } },
    }),
  );
  // #endregion
}
