// The Epics operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List epics of a group */
export async function listEpics() {
  // #region listEpics
  for await (const epic of api.paginate(() =>
    api.GET('/groups/{id}/epics', { params: { path: { id: 'my-group' } } }),
  )) {
    console.log(epic.web_url, epic.title);
  }
  // #endregion
}

/** Create an epic */
export async function createEpic() {
  // #region createEpic
  const epic = await unwrap(
    api.POST('/groups/{id}/epics', {
      params: { path: { id: 'my-group' } },
      body: { title: 'Self-service onboarding', labels: 'roadmap' },
    }),
  );
  console.log(epic.web_url, epic.title);
  // #endregion
}

/** Get an epic */
export async function getEpic() {
  // #region getEpic
  try {
    const epic = await unwrap(
      api.GET('/groups/{id}/epics/{epic_iid}', {
        params: { path: { id: 'my-group', epic_iid: 5 } },
      }),
    );
    console.log(epic.web_url, epic.title);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update an epic */
export async function updateEpic() {
  // #region updateEpic
  const epic = await unwrap(
    api.PUT('/groups/{id}/epics/{epic_iid}', {
      params: { path: { id: 'my-group', epic_iid: 5 } },
      body: { state_event: 'close' },
    }),
  );
  console.log(epic.web_url, epic.title);
  // #endregion
}

/** Delete an epic */
export async function deleteEpic() {
  // #region deleteEpic
  await unwrap(
    api.DELETE('/groups/{id}/epics/{epic_iid}', {
      params: { path: { id: 'my-group', epic_iid: 5 } },
    }),
  );
  // #endregion
}

/** Create a to-do item on an epic */
export async function createEpicTodo() {
  // #region createEpicTodo
  const todo = await unwrap(
    api.POST('/groups/{id}/epics/{epic_iid}/todo', {
      params: { path: { id: 'my-group', epic_iid: 5 } },
    }),
  );
  console.log(todo.id, todo.state);
  // #endregion
}
