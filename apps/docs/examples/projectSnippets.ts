// The Project snippets operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the snippets of a project */
export async function listProjectSnippets() {
  // #region listProjectSnippets
  for await (const projectSnippet of api.paginate(() =>
    api.GET('/projects/{id}/snippets', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(projectSnippet.web_url, projectSnippet.title);
  }
  // #endregion
}

/** Create a project snippet */
export async function createProjectSnippet() {
  // #region createProjectSnippet
  const projectSnippet = await unwrap(
    api.POST('/projects/{id}/snippets', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        title: 'Deploy script',
        visibility: 'internal',
        file_name: 'deploy.sh',
        content: 'make deploy',
      },
    }),
  );
  console.log(projectSnippet.web_url, projectSnippet.title);
  // #endregion
}

/** Get a project snippet */
export async function getProjectSnippet() {
  // #region getProjectSnippet
  try {
    const projectSnippet = await unwrap(
      api.GET('/projects/{id}/snippets/{snippet_id}', {
        params: { path: { id: 'my-group/my-project', snippet_id: 52 } },
      }),
    );
    console.log(projectSnippet.web_url, projectSnippet.title);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update a project snippet */
export async function updateProjectSnippet() {
  // #region updateProjectSnippet
  const projectSnippet = await unwrap(
    api.PUT('/projects/{id}/snippets/{snippet_id}', {
      params: { path: { id: 'my-group/my-project', snippet_id: 52 } },
      body: { title: 'Deploy script (v2)' },
    }),
  );
  console.log(projectSnippet.web_url, projectSnippet.title);
  // #endregion
}

/** Delete a project snippet */
export async function deleteProjectSnippet() {
  // #region deleteProjectSnippet
  await unwrap(
    api.DELETE('/projects/{id}/snippets/{snippet_id}', {
      params: { path: { id: 'my-group/my-project', snippet_id: 52 } },
    }),
  );
  // #endregion
}

/** Get the raw content of a project snippet */
export async function getProjectSnippetRaw() {
  // #region getProjectSnippetRaw
  try {
    const content = await unwrap(
      api.GET('/projects/{id}/snippets/{snippet_id}/raw', {
        params: { path: { id: 'my-group/my-project', snippet_id: 52 } },
        parseAs: 'text',
      }),
    );
    console.log(content);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Get the user-agent detail of a project snippet */
export async function getProjectSnippetUserAgentDetail() {
  // #region getProjectSnippetUserAgentDetail
  try {
    const snippetUserAgentDetail = await unwrap(
      api.GET('/projects/{id}/snippets/{snippet_id}/user_agent_detail', {
        params: { path: { id: 'my-group/my-project', snippet_id: 52 } },
      }),
    );
    console.log(
      snippetUserAgentDetail.user_agent,
      snippetUserAgentDetail.ip_address,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}
