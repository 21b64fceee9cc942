// The Snippets operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the caller's snippets */
export async function listSnippets() {
  // #region listSnippets
  for await (const snippet of api.paginate(() => api.GET('/snippets'))) {
    console.log(snippet.web_url, snippet.title);
  }
  // #endregion
}

/** Create a snippet */
export async function createSnippet() {
  // #region createSnippet
  const snippet = await unwrap(
    api.POST('/snippets', {
      body: {
        title: 'Shell aliases',
        visibility: 'private',
        file_name: 'aliases.sh',
        content: 'alias gs="git status"',
      },
    }),
  );
  console.log(snippet.web_url, snippet.title);
  // #endregion
}

/** List public snippets */
export async function listPublicSnippets() {
  // #region listPublicSnippets
  for await (const snippet of api.paginate(() => api.GET('/snippets/public'))) {
    console.log(snippet.web_url, snippet.title);
  }
  // #endregion
}

/** Get a snippet */
export async function getSnippet() {
  // #region getSnippet
  try {
    const snippet = await unwrap(
      api.GET('/snippets/{id}', { params: { path: { id: 42 } } }),
    );
    console.log(snippet.web_url, snippet.title);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update a snippet */
export async function updateSnippet() {
  // #region updateSnippet
  const snippet = await unwrap(
    api.PUT('/snippets/{id}', {
      params: { path: { id: 42 } },
      body: { title: 'Shell aliases (zsh)' },
    }),
  );
  console.log(snippet.web_url, snippet.title);
  // #endregion
}

/** Delete a snippet */
export async function deleteSnippet() {
  // #region deleteSnippet
  await unwrap(api.DELETE('/snippets/{id}', { params: { path: { id: 42 } } }));
  // #endregion
}

/** Get the raw content of a snippet */
export async function getSnippetRaw() {
  // #region getSnippetRaw
  try {
    const content = await unwrap(
      api.GET('/snippets/{id}/raw', {
        params: { path: { id: 42 } },
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

/** Get the user-agent detail of a snippet */
export async function getSnippetUserAgentDetail() {
  // #region getSnippetUserAgentDetail
  try {
    const snippetUserAgentDetail = await unwrap(
      api.GET('/snippets/{id}/user_agent_detail', {
        params: { path: { id: 42 } },
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
