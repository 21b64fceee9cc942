// The Badges operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the badges of a project */
export async function listProjectBadges() {
  // #region listProjectBadges
  for await (const badge of api.paginate(() =>
    api.GET('/projects/{id}/badges', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(badge.name, badge.id);
  }
  // #endregion
}

/** Add a badge to a project */
export async function addProjectBadge() {
  // #region addProjectBadge
  const badge = await unwrap(
    api.POST('/projects/{id}/badges', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        link_url: 'https://ci.example.com/%{project_path}/pipelines',
        image_url:
          'https://ci.example.com/%{project_path}/badge.svg?ref=%{default_branch}',
      },
    }),
  );
  console.log(badge.name, badge.id);
  // #endregion
}

/** Preview a badge of a project */
export async function renderProjectBadge() {
  // #region renderProjectBadge
  try {
    const badgePreview = await unwrap(
      api.GET('/projects/{id}/badges/render', {
        params: {
          path: { id: 'my-group/my-project' },
          query: {
            link_url: 'https://ci.example.com/%{project_path}/pipelines',
            image_url:
              'https://ci.example.com/%{project_path}/badge.svg?ref=%{default_branch}',
          },
        },
      }),
    );
    console.log(
      badgePreview.rendered_link_url,
      badgePreview.rendered_image_url,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Get a badge of a project */
export async function getProjectBadge() {
  // #region getProjectBadge
  try {
    const badge = await unwrap(
      api.GET('/projects/{id}/badges/{badge_id}', {
        params: { path: { id: 'my-group/my-project', badge_id: 1 } },
      }),
    );
    console.log(badge.name, badge.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update a badge of a project */
export async function updateProjectBadge() {
  // #region updateProjectBadge
  const badge = await unwrap(
    api.PUT('/projects/{id}/badges/{badge_id}', {
      params: { path: { id: 'my-group/my-project', badge_id: 1 } },
      body: {
        link_url: 'https://ci.example.com/%{project_path}/pipelines',
        image_url:
          'https://ci.example.com/%{project_path}/badge.svg?ref=%{default_branch}',
      },
    }),
  );
  console.log(badge.name, badge.id);
  // #endregion
}

/** Delete a badge of a project */
export async function deleteProjectBadge() {
  // #region deleteProjectBadge
  await unwrap(
    api.DELETE('/projects/{id}/badges/{badge_id}', {
      params: { path: { id: 'my-group/my-project', badge_id: 1 } },
    }),
  );
  // #endregion
}

/** List the badges of a group */
export async function listGroupBadges() {
  // #region listGroupBadges
  for await (const badge of api.paginate(() =>
    api.GET('/groups/{id}/badges', { params: { path: { id: 'my-group' } } }),
  )) {
    console.log(badge.name, badge.id);
  }
  // #endregion
}

/** Add a badge to a group */
export async function addGroupBadge() {
  // #region addGroupBadge
  const badge = await unwrap(
    api.POST('/groups/{id}/badges', {
      params: { path: { id: 'my-group' } },
      body: {
        link_url: 'https://ci.example.com/%{project_path}/pipelines',
        image_url:
          'https://ci.example.com/%{project_path}/badge.svg?ref=%{default_branch}',
      },
    }),
  );
  console.log(badge.name, badge.id);
  // #endregion
}

/** Preview a badge of a group */
export async function renderGroupBadge() {
  // #region renderGroupBadge
  try {
    const badgePreview = await unwrap(
      api.GET('/groups/{id}/badges/render', {
        params: {
          path: { id: 'my-group' },
          query: {
            link_url: 'https://ci.example.com/%{project_path}/pipelines',
            image_url:
              'https://ci.example.com/%{project_path}/badge.svg?ref=%{default_branch}',
          },
        },
      }),
    );
    console.log(
      badgePreview.rendered_link_url,
      badgePreview.rendered_image_url,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Get a badge of a group */
export async function getGroupBadge() {
  // #region getGroupBadge
  try {
    const badge = await unwrap(
      api.GET('/groups/{id}/badges/{badge_id}', {
        params: { path: { id: 'my-group', badge_id: 4 } },
      }),
    );
    console.log(badge.name, badge.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update a badge of a group */
export async function updateGroupBadge() {
  // #region updateGroupBadge
  const badge = await unwrap(
    api.PUT('/groups/{id}/badges/{badge_id}', {
      params: { path: { id: 'my-group', badge_id: 4 } },
      body: {
        link_url: 'https://ci.example.com/%{project_path}/pipelines',
        image_url:
          'https://ci.example.com/%{project_path}/badge.svg?ref=%{default_branch}',
      },
    }),
  );
  console.log(badge.name, badge.id);
  // #endregion
}

/** Delete a badge of a group */
export async function deleteGroupBadge() {
  // #region deleteGroupBadge
  await unwrap(
    api.DELETE('/groups/{id}/badges/{badge_id}', {
      params: { path: { id: 'my-group', badge_id: 4 } },
    }),
  );
  // #endregion
}
