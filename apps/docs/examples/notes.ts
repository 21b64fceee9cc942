// The Notes operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the notes of an issue */
export async function listIssueNotes() {
  // #region listIssueNotes
  for await (const note of api.paginate(() =>
    api.GET('/projects/{id}/issues/{issue_iid}/notes', {
      params: { path: { id: 'my-group/my-project', issue_iid: 11 } },
    }),
  )) {
    console.log(note.id);
  }
  // #endregion
}

/** Create a note on an issue */
export async function createIssueNote() {
  // #region createIssueNote
  const note = await unwrap(
    api.POST('/projects/{id}/issues/{issue_iid}/notes', {
      params: { path: { id: 'my-group/my-project', issue_iid: 11 } },
      body: { body: 'Looks good to me: merging after CI.' },
    }),
  );
  console.log(note.id, note.created_at);
  // #endregion
}

/** Get a note of an issue */
export async function getIssueNote() {
  // #region getIssueNote
  try {
    const note = await unwrap(
      api.GET('/projects/{id}/issues/{issue_iid}/notes/{note_id}', {
        params: {
          path: { id: 'my-group/my-project', issue_iid: 11, note_id: 302 },
        },
      }),
    );
    console.log(note.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Modify a note of an issue */
export async function updateIssueNote() {
  // #region updateIssueNote
  const note = await unwrap(
    api.PUT('/projects/{id}/issues/{issue_iid}/notes/{note_id}', {
      params: {
        path: { id: 'my-group/my-project', issue_iid: 11, note_id: 302 },
      },
      body: { body: 'Looks good to me: merging after CI.' },
    }),
  );
  console.log(note.id);
  // #endregion
}

/** Delete a note of an issue */
export async function deleteIssueNote() {
  // #region deleteIssueNote
  await unwrap(
    api.DELETE('/projects/{id}/issues/{issue_iid}/notes/{note_id}', {
      params: {
        path: { id: 'my-group/my-project', issue_iid: 11, note_id: 302 },
      },
    }),
  );
  // #endregion
}

/** List the notes of a project snippet */
export async function listSnippetNotes() {
  // #region listSnippetNotes
  for await (const note of api.paginate(() =>
    api.GET('/projects/{id}/snippets/{snippet_id}/notes', {
      params: { path: { id: 'my-group/my-project', snippet_id: 52 } },
    }),
  )) {
    console.log(note.id);
  }
  // #endregion
}

/** Create a note on a project snippet */
export async function createSnippetNote() {
  // #region createSnippetNote
  const note = await unwrap(
    api.POST('/projects/{id}/snippets/{snippet_id}/notes', {
      params: { path: { id: 'my-group/my-project', snippet_id: 52 } },
      body: { body: 'Looks good to me: merging after CI.' },
    }),
  );
  console.log(note.id, note.created_at);
  // #endregion
}

/** Get a note of a project snippet */
export async function getSnippetNote() {
  // #region getSnippetNote
  try {
    const note = await unwrap(
      api.GET('/projects/{id}/snippets/{snippet_id}/notes/{note_id}', {
        params: {
          path: { id: 'my-group/my-project', snippet_id: 52, note_id: 302 },
        },
      }),
    );
    console.log(note.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Modify a note of a project snippet */
export async function updateSnippetNote() {
  // #region updateSnippetNote
  const note = await unwrap(
    api.PUT('/projects/{id}/snippets/{snippet_id}/notes/{note_id}', {
      params: {
        path: { id: 'my-group/my-project', snippet_id: 52, note_id: 302 },
      },
      body: { body: 'Looks good to me: merging after CI.' },
    }),
  );
  console.log(note.id);
  // #endregion
}

/** Delete a note of a project snippet */
export async function deleteSnippetNote() {
  // #region deleteSnippetNote
  await unwrap(
    api.DELETE('/projects/{id}/snippets/{snippet_id}/notes/{note_id}', {
      params: {
        path: { id: 'my-group/my-project', snippet_id: 52, note_id: 302 },
      },
    }),
  );
  // #endregion
}

/** List the notes of a merge request */
export async function listMergeRequestNotes() {
  // #region listMergeRequestNotes
  for await (const note of api.paginate(() =>
    api.GET('/projects/{id}/merge_requests/{merge_request_iid}/notes', {
      params: { path: { id: 'my-group/my-project', merge_request_iid: 7 } },
    }),
  )) {
    console.log(note.id);
  }
  // #endregion
}

/** Create a note on a merge request */
export async function createMergeRequestNote() {
  // #region createMergeRequestNote
  const note = await unwrap(
    api.POST('/projects/{id}/merge_requests/{merge_request_iid}/notes', {
      params: { path: { id: 'my-group/my-project', merge_request_iid: 7 } },
      body: { body: 'Looks good to me: merging after CI.' },
    }),
  );
  console.log(note.id, note.created_at);
  // #endregion
}

/** Get a note of a merge request */
export async function getMergeRequestNote() {
  // #region getMergeRequestNote
  try {
    const note = await unwrap(
      api.GET(
        '/projects/{id}/merge_requests/{merge_request_iid}/notes/{note_id}',
        {
          params: {
            path: {
              id: 'my-group/my-project',
              merge_request_iid: 7,
              note_id: 302,
            },
          },
        },
      ),
    );
    console.log(note.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Modify a note of a merge request */
export async function updateMergeRequestNote() {
  // #region updateMergeRequestNote
  const note = await unwrap(
    api.PUT(
      '/projects/{id}/merge_requests/{merge_request_iid}/notes/{note_id}',
      {
        params: {
          path: {
            id: 'my-group/my-project',
            merge_request_iid: 7,
            note_id: 302,
          },
        },
        body: { body: 'Looks good to me: merging after CI.' },
      },
    ),
  );
  console.log(note.id);
  // #endregion
}

/** Delete a note of a merge request */
export async function deleteMergeRequestNote() {
  // #region deleteMergeRequestNote
  await unwrap(
    api.DELETE(
      '/projects/{id}/merge_requests/{merge_request_iid}/notes/{note_id}',
      {
        params: {
          path: {
            id: 'my-group/my-project',
            merge_request_iid: 7,
            note_id: 302,
          },
        },
      },
    ),
  );
  // #endregion
}

/** List the notes of an epic */
export async function listEpicNotes() {
  // #region listEpicNotes
  for await (const note of api.paginate(() =>
    api.GET('/groups/{id}/epics/{epic_id}/notes', {
      params: { path: { id: 'my-group', epic_id: 5 } },
    }),
  )) {
    console.log(note.id);
  }
  // #endregion
}

/** Create a note on an epic */
export async function createEpicNote() {
  // #region createEpicNote
  const note = await unwrap(
    api.POST('/groups/{id}/epics/{epic_id}/notes', {
      params: { path: { id: 'my-group', epic_id: 5 } },
      body: { body: 'Looks good to me: merging after CI.' },
    }),
  );
  console.log(note.id, note.created_at);
  // #endregion
}

/** Get a note of an epic */
export async function getEpicNote() {
  // #region getEpicNote
  try {
    const note = await unwrap(
      api.GET('/groups/{id}/epics/{epic_id}/notes/{note_id}', {
        params: { path: { id: 'my-group', epic_id: 5, note_id: 302 } },
      }),
    );
    console.log(note.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Modify a note of an epic */
export async function updateEpicNote() {
  // #region updateEpicNote
  const note = await unwrap(
    api.PUT('/groups/{id}/epics/{epic_id}/notes/{note_id}', {
      params: { path: { id: 'my-group', epic_id: 5, note_id: 302 } },
      body: { body: 'Looks good to me: merging after CI.' },
    }),
  );
  console.log(note.id);
  // #endregion
}

/** Delete a note of an epic */
export async function deleteEpicNote() {
  // #region deleteEpicNote
  await unwrap(
    api.DELETE('/groups/{id}/epics/{epic_id}/notes/{note_id}', {
      params: { path: { id: 'my-group', epic_id: 5, note_id: 302 } },
    }),
  );
  // #endregion
}
