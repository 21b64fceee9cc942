// The Projects operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { readFile } from 'node:fs/promises';
import {
  CollabApiError,
  createCollabClient,
  multipart,
  unwrap,
} from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List projects */
export async function listProjects() {
  // #region listProjects
  // Keyset pagination: the pages follow the Link header, whatever the number of projects.
  for await (const project of api.paginate(() =>
    api.GET('/projects', {
      params: {
        query: {
          pagination: 'keyset',
          order_by: 'id',
          sort: 'asc',
          per_page: 100,
        },
      },
    }),
  )) {
    console.log(project.id, project.path_with_namespace);
  }
  // #endregion
}

/** Create a project */
export async function createProject() {
  // #region createProject
  const project = await unwrap(
    api.POST('/projects', {
      body: {
        name: 'My Project',
        namespace_id: 2,
        description: 'The demo project.',
        visibility: 'private',
        initialize_with_readme: true,
      },
    }),
  );
  console.log(project.path_with_namespace, project.web_url);
  // #endregion
}

/** List a user's projects */
export async function listUserProjects() {
  // #region listUserProjects
  for await (const item of api.paginate(() =>
    api.GET('/users/{user_id}/projects', {
      params: { path: { user_id: 'ada' } },
    }),
  )) {
    console.log(item.web_url, item.path_with_namespace);
  }
  // #endregion
}

/** Get a project */
export async function getProject() {
  // #region getProject
  try {
    const project = await unwrap(
      api.GET('/projects/{id}', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(project.path_with_namespace, project.default_branch);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Edit a project */
export async function editProject() {
  // #region editProject
  const project = await unwrap(
    api.PUT('/projects/{id}', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        description: 'The demo project, renamed.',
        default_branch: 'main',
        topics: ['demo', 'api'],
      },
    }),
  );
  console.log(project.path_with_namespace, project.web_url);
  // #endregion
}

/** Delete a project */
export async function deleteProject() {
  // #region deleteProject
  const result = await unwrap(
    api.DELETE('/projects/{id}', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  console.log(result.message);
  // #endregion
}

/** List the users who starred a project */
export async function listProjectStarrers() {
  // #region listProjectStarrers
  for await (const projectStarrer of api.paginate(() =>
    api.GET('/projects/{id}/starrers', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(projectStarrer.user.username, projectStarrer.starred_since);
  }
  // #endregion
}

/** Get the languages of a project */
export async function getProjectLanguages() {
  // #region getProjectLanguages
  try {
    const languages = await unwrap(
      api.GET('/projects/{id}/languages', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    for (const [language, percent] of Object.entries(languages)) {
      console.log(`${language}: ${percent}%`);
    }
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Archive a project */
export async function archiveProject() {
  // #region archiveProject
  const project = await unwrap(
    api.POST('/projects/{id}/archive', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  console.log(project.path_with_namespace, project.web_url);
  // #endregion
}

/** Unarchive a project */
export async function unarchiveProject() {
  // #region unarchiveProject
  const project = await unwrap(
    api.POST('/projects/{id}/unarchive', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  console.log(project.path_with_namespace, project.web_url);
  // #endregion
}

/** Restore a project marked for deletion */
export async function restoreProject() {
  // #region restoreProject
  const project = await unwrap(
    api.POST('/projects/{id}/restore', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  console.log(project.path_with_namespace, project.web_url);
  // #endregion
}

/** Upload a file to a project */
export async function uploadProjectFile() {
  // #region uploadProjectFile
  const screenshot = new File(
    [await readFile('screenshot.png')],
    'screenshot.png',
    { type: 'image/png' },
  );
  const projectUpload = await unwrap(
    api.POST('/projects/{id}/uploads', {
      params: { path: { id: 'my-group/my-project' } },
      ...multipart<'/projects/{id}/uploads'>({ file: screenshot }),
    }),
  );
  // Markdown to put in an issue or a note: ![screenshot](/uploads/…/screenshot.png)
  console.log(projectUpload.markdown);
  // #endregion
}

/** Share a project with a group */
export async function shareProjectWithGroup() {
  // #region shareProjectWithGroup
  try {
    const projectGroupLink = await unwrap(
      api.POST('/projects/{id}/share', {
        params: { path: { id: 'my-group/my-project' } },
        body: { group_id: 1, group_access: 10 },
      }),
    );
    console.log(projectGroupLink.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 409)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Stop sharing a project with a group */
export async function unshareProjectWithGroup() {
  // #region unshareProjectWithGroup
  await unwrap(
    api.DELETE('/projects/{id}/share/{group_id}', {
      params: { path: { id: 'my-group/my-project', group_id: 1 } },
    }),
  );
  // #endregion
}
