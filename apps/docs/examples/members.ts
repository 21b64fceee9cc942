// The Members operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the members of a project */
export async function listProjectMembers() {
  // #region listProjectMembers
  for await (const member of api.paginate(() =>
    api.GET('/projects/{id}/members', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(member.web_url, member.name);
  }
  // #endregion
}

/** List the members of a project, including inherited members */
export async function listProjectMembersIncludingInherited() {
  // #region listProjectMembersIncludingInherited
  for await (const member of api.paginate(() =>
    api.GET('/projects/{id}/members/all', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(member.web_url, member.name);
  }
  // #endregion
}

/** Get a member of a project */
export async function getProjectMember() {
  // #region getProjectMember
  try {
    const member = await unwrap(
      api.GET('/projects/{id}/members/{user_id}', {
        params: { path: { id: 'my-group/my-project', user_id: 4 } },
      }),
    );
    console.log(member.web_url, member.name);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Get a member of a project, including inherited members */
export async function getProjectMemberIncludingInherited() {
  // #region getProjectMemberIncludingInherited
  try {
    const member = await unwrap(
      api.GET('/projects/{id}/members/all/{user_id}', {
        params: { path: { id: 'my-group/my-project', user_id: 4 } },
      }),
    );
    console.log(member.web_url, member.name);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** List the members of a group */
export async function listGroupMembers() {
  // #region listGroupMembers
  for await (const member of api.paginate(() =>
    api.GET('/groups/{id}/members', { params: { path: { id: 'my-group' } } }),
  )) {
    console.log(member.web_url, member.name);
  }
  // #endregion
}

/** List the members of a group, including inherited members */
export async function listGroupMembersIncludingInherited() {
  // #region listGroupMembersIncludingInherited
  for await (const member of api.paginate(() =>
    api.GET('/groups/{id}/members/all', {
      params: { path: { id: 'my-group' } },
    }),
  )) {
    console.log(member.web_url, member.name);
  }
  // #endregion
}

/** Get a member of a group */
export async function getGroupMember() {
  // #region getGroupMember
  try {
    const member = await unwrap(
      api.GET('/groups/{id}/members/{user_id}', {
        params: { path: { id: 'my-group', user_id: 4 } },
      }),
    );
    console.log(member.web_url, member.name);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Get a member of a group, including inherited members */
export async function getGroupMemberIncludingInherited() {
  // #region getGroupMemberIncludingInherited
  try {
    const member = await unwrap(
      api.GET('/groups/{id}/members/all/{user_id}', {
        params: { path: { id: 'my-group', user_id: 4 } },
      }),
    );
    console.log(member.web_url, member.name);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Add a member to a project */
export async function addProjectMember() {
  // #region addProjectMember
  try {
    const member = await unwrap(
      api.POST('/projects/{id}/members', {
        params: { path: { id: 'my-group/my-project' } },
        body: { user_id: 4, access_level: 30, expires_at: '2030-12-31' },
      }),
    );
    console.log(member.username, member.access_level);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 409)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Change a member of a project */
export async function editProjectMember() {
  // #region editProjectMember
  const member = await unwrap(
    api.PUT('/projects/{id}/members/{user_id}', {
      params: { path: { id: 'my-group/my-project', user_id: 4 } },
      body: { access_level: 40 },
    }),
  );
  console.log(member.username, member.access_level);
  // #endregion
}

/** Remove a member of a project */
export async function removeProjectMember() {
  // #region removeProjectMember
  await unwrap(
    api.DELETE('/projects/{id}/members/{user_id}', {
      params: {
        path: { id: 'my-group/my-project', user_id: 4 },
        query: { unassign_issuables: true },
      },
    }),
  );
  // #endregion
}

/** Add a member to a group */
export async function addGroupMember() {
  // #region addGroupMember
  try {
    const member = await unwrap(
      api.POST('/groups/{id}/members', {
        params: { path: { id: 'my-group' } },
        body: { user_id: 4, access_level: 30, expires_at: '2030-12-31' },
      }),
    );
    console.log(member.username, member.access_level);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 409)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Change a member of a group */
export async function editGroupMember() {
  // #region editGroupMember
  const member = await unwrap(
    api.PUT('/groups/{id}/members/{user_id}', {
      params: { path: { id: 'my-group', user_id: 4 } },
      body: { access_level: 40 },
    }),
  );
  console.log(member.username, member.access_level);
  // #endregion
}

/** Remove a member of a group */
export async function removeGroupMember() {
  // #region removeGroupMember
  await unwrap(
    api.DELETE('/groups/{id}/members/{user_id}', {
      params: {
        path: { id: 'my-group', user_id: 4 },
        query: { unassign_issuables: true },
      },
    }),
  );
  // #endregion
}
