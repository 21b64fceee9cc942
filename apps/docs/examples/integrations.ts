// The Integrations operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List the active integrations of a project */
export async function listProjectIntegrations() {
  // #region listProjectIntegrations
  for await (const integration of api.paginate(() =>
    api.GET('/projects/{id}/services', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(integration.title, integration.id);
  }
  // #endregion
}

/** Get the commit-task-comments integration */
export async function getCommitTaskCommentsIntegration() {
  // #region getCommitTaskCommentsIntegration
  try {
    const commitTaskCommentsIntegration = await unwrap(
      api.GET('/projects/{id}/services/commit-task-comments', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(
      commitTaskCommentsIntegration.title,
      commitTaskCommentsIntegration.id,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the commit-task-comments integration */
export async function updateCommitTaskCommentsIntegration() {
  // #region updateCommitTaskCommentsIntegration
  const commitTaskCommentsIntegration = await unwrap(
    api.PUT('/projects/{id}/services/commit-task-comments', {
      params: { path: { id: 'my-group/my-project' } },
      body: { api_key: process.env.TASKS_API_KEY ?? '' },
    }),
  );
  console.log(
    commitTaskCommentsIntegration.title,
    commitTaskCommentsIntegration.id,
  );
  // #endregion
}

/** Delete the commit-task-comments integration */
export async function deleteCommitTaskCommentsIntegration() {
  // #region deleteCommitTaskCommentsIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/commit-task-comments', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the source-commits-pm integration */
export async function getSourceCommitsPmIntegration() {
  // #region getSourceCommitsPmIntegration
  try {
    const sourceCommitsPmIntegration = await unwrap(
      api.GET('/projects/{id}/services/source-commits-pm', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(
      sourceCommitsPmIntegration.title,
      sourceCommitsPmIntegration.id,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the source-commits-pm integration */
export async function updateSourceCommitsPmIntegration() {
  // #region updateSourceCommitsPmIntegration
  const sourceCommitsPmIntegration = await unwrap(
    api.PUT('/projects/{id}/services/source-commits-pm', {
      params: { path: { id: 'my-group/my-project' } },
      body: { token: process.env.INTEGRATION_TOKEN ?? '' },
    }),
  );
  console.log(sourceCommitsPmIntegration.title, sourceCommitsPmIntegration.id);
  // #endregion
}

/** Delete the source-commits-pm integration */
export async function deleteSourceCommitsPmIntegration() {
  // #region deleteSourceCommitsPmIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/source-commits-pm', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the build-server-a integration */
export async function getBuildServerAIntegration() {
  // #region getBuildServerAIntegration
  try {
    const buildServerAIntegration = await unwrap(
      api.GET('/projects/{id}/services/build-server-a', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(buildServerAIntegration.title, buildServerAIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the build-server-a integration */
export async function updateBuildServerAIntegration() {
  // #region updateBuildServerAIntegration
  const buildServerAIntegration = await unwrap(
    api.PUT('/projects/{id}/services/build-server-a', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        buildserver_url: 'https://builds.example.com',
        build_key: 'PROJ-BUILD',
        username: 'ci-bot',
        password: process.env.BUILD_SERVER_PASSWORD ?? '',
      },
    }),
  );
  console.log(buildServerAIntegration.title, buildServerAIntegration.id);
  // #endregion
}

/** Delete the build-server-a integration */
export async function deleteBuildServerAIntegration() {
  // #region deleteBuildServerAIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/build-server-a', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the issue-tracker-a integration */
export async function getIssueTrackerAIntegration() {
  // #region getIssueTrackerAIntegration
  try {
    const issueTrackerAIntegration = await unwrap(
      api.GET('/projects/{id}/services/issue-tracker-a', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(issueTrackerAIntegration.title, issueTrackerAIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the issue-tracker-a integration */
export async function updateIssueTrackerAIntegration() {
  // #region updateIssueTrackerAIntegration
  const issueTrackerAIntegration = await unwrap(
    api.PUT('/projects/{id}/services/issue-tracker-a', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        new_issue_url: 'https://tracker.example.com/issues/new',
        issues_url: 'https://tracker.example.com/issues/:id',
        project_url: 'https://tracker.example.com/projects/my-project',
      },
    }),
  );
  console.log(issueTrackerAIntegration.title, issueTrackerAIntegration.id);
  // #endregion
}

/** Delete the issue-tracker-a integration */
export async function deleteIssueTrackerAIntegration() {
  // #region deleteIssueTrackerAIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/issue-tracker-a', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the custom-issue-tracker integration */
export async function getCustomIssueTrackerIntegration() {
  // #region getCustomIssueTrackerIntegration
  try {
    const customIssueTrackerIntegration = await unwrap(
      api.GET('/projects/{id}/services/custom-issue-tracker', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(
      customIssueTrackerIntegration.title,
      customIssueTrackerIntegration.id,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the custom-issue-tracker integration */
export async function updateCustomIssueTrackerIntegration() {
  // #region updateCustomIssueTrackerIntegration
  const customIssueTrackerIntegration = await unwrap(
    api.PUT('/projects/{id}/services/custom-issue-tracker', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        new_issue_url: 'https://tracker.example.com/issues/new',
        issues_url: 'https://tracker.example.com/issues/:id',
        project_url: 'https://tracker.example.com/projects/my-project',
      },
    }),
  );
  console.log(
    customIssueTrackerIntegration.title,
    customIssueTrackerIntegration.id,
  );
  // #endregion
}

/** Delete the custom-issue-tracker integration */
export async function deleteCustomIssueTrackerIntegration() {
  // #region deleteCustomIssueTrackerIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/custom-issue-tracker', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the build-pipeline-ci integration */
export async function getBuildPipelineCiIntegration() {
  // #region getBuildPipelineCiIntegration
  try {
    const buildPipelineCiIntegration = await unwrap(
      api.GET('/projects/{id}/services/build-pipeline-ci', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(
      buildPipelineCiIntegration.title,
      buildPipelineCiIntegration.id,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the build-pipeline-ci integration */
export async function updateBuildPipelineCiIntegration() {
  // #region updateBuildPipelineCiIntegration
  const buildPipelineCiIntegration = await unwrap(
    api.PUT('/projects/{id}/services/build-pipeline-ci', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        token: process.env.INTEGRATION_TOKEN ?? '',
        project_url: 'https://tracker.example.com/projects/my-project',
      },
    }),
  );
  console.log(buildPipelineCiIntegration.title, buildPipelineCiIntegration.id);
  // #endregion
}

/** Delete the build-pipeline-ci integration */
export async function deleteBuildPipelineCiIntegration() {
  // #region deleteBuildPipelineCiIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/build-pipeline-ci', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the group-chat-room integration */
export async function getGroupChatRoomIntegration() {
  // #region getGroupChatRoomIntegration
  try {
    const groupChatRoomIntegration = await unwrap(
      api.GET('/projects/{id}/services/group-chat-room', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(groupChatRoomIntegration.title, groupChatRoomIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the group-chat-room integration */
export async function updateGroupChatRoomIntegration() {
  // #region updateGroupChatRoomIntegration
  const groupChatRoomIntegration = await unwrap(
    api.PUT('/projects/{id}/services/group-chat-room', {
      params: { path: { id: 'my-group/my-project' } },
      body: { token: process.env.INTEGRATION_TOKEN ?? '' },
    }),
  );
  console.log(groupChatRoomIntegration.title, groupChatRoomIntegration.id);
  // #endregion
}

/** Delete the group-chat-room integration */
export async function deleteGroupChatRoomIntegration() {
  // #region deleteGroupChatRoomIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/group-chat-room', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the team-chat-a integration */
export async function getTeamChatAIntegration() {
  // #region getTeamChatAIntegration
  try {
    const teamChatAIntegration = await unwrap(
      api.GET('/projects/{id}/services/team-chat-a', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(teamChatAIntegration.title, teamChatAIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the team-chat-a integration */
export async function updateTeamChatAIntegration() {
  // #region updateTeamChatAIntegration
  const teamChatAIntegration = await unwrap(
    api.PUT('/projects/{id}/services/team-chat-a', {
      params: { path: { id: 'my-group/my-project' } },
      body: { webhook: 'https://chat.example.com/hooks/T0001/B0001/abcdef' },
    }),
  );
  console.log(teamChatAIntegration.title, teamChatAIntegration.id);
  // #endregion
}

/** Delete the team-chat-a integration */
export async function deleteTeamChatAIntegration() {
  // #region deleteTeamChatAIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/team-chat-a', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the team-chat-b integration */
export async function getTeamChatBIntegration() {
  // #region getTeamChatBIntegration
  try {
    const teamChatBIntegration = await unwrap(
      api.GET('/projects/{id}/services/team-chat-b', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(teamChatBIntegration.title, teamChatBIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the team-chat-b integration */
export async function updateTeamChatBIntegration() {
  // #region updateTeamChatBIntegration
  const teamChatBIntegration = await unwrap(
    api.PUT('/projects/{id}/services/team-chat-b', {
      params: { path: { id: 'my-group/my-project' } },
      body: { webhook: 'https://chat.example.com/hooks/T0001/B0001/abcdef' },
    }),
  );
  console.log(teamChatBIntegration.title, teamChatBIntegration.id);
  // #endregion
}

/** Delete the team-chat-b integration */
export async function deleteTeamChatBIntegration() {
  // #region deleteTeamChatBIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/team-chat-b', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the team-chat-c integration */
export async function getTeamChatCIntegration() {
  // #region getTeamChatCIntegration
  try {
    const teamChatCIntegration = await unwrap(
      api.GET('/projects/{id}/services/team-chat-c', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(teamChatCIntegration.title, teamChatCIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the team-chat-c integration */
export async function updateTeamChatCIntegration() {
  // #region updateTeamChatCIntegration
  const teamChatCIntegration = await unwrap(
    api.PUT('/projects/{id}/services/team-chat-c', {
      params: { path: { id: 'my-group/my-project' } },
      body: { webhook: 'https://chat.example.com/hooks/T0001/B0001/abcdef' },
    }),
  );
  console.log(teamChatCIntegration.title, teamChatCIntegration.id);
  // #endregion
}

/** Delete the team-chat-c integration */
export async function deleteTeamChatCIntegration() {
  // #region deleteTeamChatCIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/team-chat-c', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the ci-server-b integration */
export async function getCiServerBIntegration() {
  // #region getCiServerBIntegration
  try {
    const ciServerBIntegration = await unwrap(
      api.GET('/projects/{id}/services/ci-server-b', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(ciServerBIntegration.title, ciServerBIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the ci-server-b integration */
export async function updateCiServerBIntegration() {
  // #region updateCiServerBIntegration
  const ciServerBIntegration = await unwrap(
    api.PUT('/projects/{id}/services/ci-server-b', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        token: process.env.INTEGRATION_TOKEN ?? '',
        ci_server_url: 'https://ci.example.com',
      },
    }),
  );
  console.log(ciServerBIntegration.title, ciServerBIntegration.id);
  // #endregion
}

/** Delete the ci-server-b integration */
export async function deleteCiServerBIntegration() {
  // #region deleteCiServerBIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/ci-server-b', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the emails-on-push integration */
export async function getEmailsOnPushIntegration() {
  // #region getEmailsOnPushIntegration
  try {
    const emailsOnPushIntegration = await unwrap(
      api.GET('/projects/{id}/services/emails-on-push', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(emailsOnPushIntegration.title, emailsOnPushIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the emails-on-push integration */
export async function updateEmailsOnPushIntegration() {
  // #region updateEmailsOnPushIntegration
  const emailsOnPushIntegration = await unwrap(
    api.PUT('/projects/{id}/services/emails-on-push', {
      params: { path: { id: 'my-group/my-project' } },
      body: { recipients: 'dev@example.com ops@example.com' },
    }),
  );
  console.log(emailsOnPushIntegration.title, emailsOnPushIntegration.id);
  // #endregion
}

/** Delete the emails-on-push integration */
export async function deleteEmailsOnPushIntegration() {
  // #region deleteEmailsOnPushIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/emails-on-push', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the external-wiki integration */
export async function getExternalWikiIntegration() {
  // #region getExternalWikiIntegration
  try {
    const externalWikiIntegration = await unwrap(
      api.GET('/projects/{id}/services/external-wiki', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(externalWikiIntegration.title, externalWikiIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the external-wiki integration */
export async function updateExternalWikiIntegration() {
  // #region updateExternalWikiIntegration
  const externalWikiIntegration = await unwrap(
    api.PUT('/projects/{id}/services/external-wiki', {
      params: { path: { id: 'my-group/my-project' } },
      body: { external_wiki_url: 'https://wiki.example.com/my-project' },
    }),
  );
  console.log(externalWikiIntegration.title, externalWikiIntegration.id);
  // #endregion
}

/** Delete the external-wiki integration */
export async function deleteExternalWikiIntegration() {
  // #region deleteExternalWikiIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/external-wiki', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the team-inbox-a integration */
export async function getTeamInboxAIntegration() {
  // #region getTeamInboxAIntegration
  try {
    const teamInboxAIntegration = await unwrap(
      api.GET('/projects/{id}/services/team-inbox-a', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(teamInboxAIntegration.title, teamInboxAIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the team-inbox-a integration */
export async function updateTeamInboxAIntegration() {
  // #region updateTeamInboxAIntegration
  const teamInboxAIntegration = await unwrap(
    api.PUT('/projects/{id}/services/team-inbox-a', {
      params: { path: { id: 'my-group/my-project' } },
      body: { token: process.env.INTEGRATION_TOKEN ?? '' },
    }),
  );
  console.log(teamInboxAIntegration.title, teamInboxAIntegration.id);
  // #endregion
}

/** Delete the team-inbox-a integration */
export async function deleteTeamInboxAIntegration() {
  // #region deleteTeamInboxAIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/team-inbox-a', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the code-host-status integration */
export async function getCodeHostStatusIntegration() {
  // #region getCodeHostStatusIntegration
  try {
    const codeHostStatusIntegration = await unwrap(
      api.GET('/projects/{id}/services/code-host-status', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(codeHostStatusIntegration.title, codeHostStatusIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the code-host-status integration */
export async function updateCodeHostStatusIntegration() {
  // #region updateCodeHostStatusIntegration
  const codeHostStatusIntegration = await unwrap(
    api.PUT('/projects/{id}/services/code-host-status', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        token: process.env.INTEGRATION_TOKEN ?? '',
        repository_url: 'https://code.example.com/my-group/my-project',
      },
    }),
  );
  console.log(codeHostStatusIntegration.title, codeHostStatusIntegration.id);
  // #endregion
}

/** Delete the code-host-status integration */
export async function deleteCodeHostStatusIntegration() {
  // #region deleteCodeHostStatusIntegration
  await unwrap(
    api.DELETE('/projects/{id}/services/code-host-status', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** List the active integrations of a project */
export async function listActiveProjectIntegrations() {
  // #region listActiveProjectIntegrations
  for await (const integration of api.paginate(() =>
    api.GET('/projects/{id}/integrations', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(integration.title, integration.id);
  }
  // #endregion
}

/** Get the commit-task-comments integration */
export async function getCommitTaskCommentsProjectIntegration() {
  // #region getCommitTaskCommentsProjectIntegration
  try {
    const commitTaskCommentsIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/commit-task-comments', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(
      commitTaskCommentsIntegration.title,
      commitTaskCommentsIntegration.id,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the commit-task-comments integration */
export async function updateCommitTaskCommentsProjectIntegration() {
  // #region updateCommitTaskCommentsProjectIntegration
  const commitTaskCommentsIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/commit-task-comments', {
      params: { path: { id: 'my-group/my-project' } },
      body: { api_key: process.env.TASKS_API_KEY ?? '' },
    }),
  );
  console.log(
    commitTaskCommentsIntegration.title,
    commitTaskCommentsIntegration.id,
  );
  // #endregion
}

/** Delete the commit-task-comments integration */
export async function deleteCommitTaskCommentsProjectIntegration() {
  // #region deleteCommitTaskCommentsProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/commit-task-comments', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the source-commits-pm integration */
export async function getSourceCommitsPmProjectIntegration() {
  // #region getSourceCommitsPmProjectIntegration
  try {
    const sourceCommitsPmIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/source-commits-pm', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(
      sourceCommitsPmIntegration.title,
      sourceCommitsPmIntegration.id,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the source-commits-pm integration */
export async function updateSourceCommitsPmProjectIntegration() {
  // #region updateSourceCommitsPmProjectIntegration
  const sourceCommitsPmIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/source-commits-pm', {
      params: { path: { id: 'my-group/my-project' } },
      body: { token: process.env.INTEGRATION_TOKEN ?? '' },
    }),
  );
  console.log(sourceCommitsPmIntegration.title, sourceCommitsPmIntegration.id);
  // #endregion
}

/** Delete the source-commits-pm integration */
export async function deleteSourceCommitsPmProjectIntegration() {
  // #region deleteSourceCommitsPmProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/source-commits-pm', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the build-server-a integration */
export async function getBuildServerAProjectIntegration() {
  // #region getBuildServerAProjectIntegration
  try {
    const buildServerAIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/build-server-a', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(buildServerAIntegration.title, buildServerAIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the build-server-a integration */
export async function updateBuildServerAProjectIntegration() {
  // #region updateBuildServerAProjectIntegration
  const buildServerAIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/build-server-a', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        buildserver_url: 'https://builds.example.com',
        build_key: 'PROJ-BUILD',
        username: 'ci-bot',
        password: process.env.BUILD_SERVER_PASSWORD ?? '',
      },
    }),
  );
  console.log(buildServerAIntegration.title, buildServerAIntegration.id);
  // #endregion
}

/** Delete the build-server-a integration */
export async function deleteBuildServerAProjectIntegration() {
  // #region deleteBuildServerAProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/build-server-a', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the issue-tracker-a integration */
export async function getIssueTrackerAProjectIntegration() {
  // #region getIssueTrackerAProjectIntegration
  try {
    const issueTrackerAIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/issue-tracker-a', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(issueTrackerAIntegration.title, issueTrackerAIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the issue-tracker-a integration */
export async function updateIssueTrackerAProjectIntegration() {
  // #region updateIssueTrackerAProjectIntegration
  const issueTrackerAIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/issue-tracker-a', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        new_issue_url: 'https://tracker.example.com/issues/new',
        issues_url: 'https://tracker.example.com/issues/:id',
        project_url: 'https://tracker.example.com/projects/my-project',
      },
    }),
  );
  console.log(issueTrackerAIntegration.title, issueTrackerAIntegration.id);
  // #endregion
}

/** Delete the issue-tracker-a integration */
export async function deleteIssueTrackerAProjectIntegration() {
  // #region deleteIssueTrackerAProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/issue-tracker-a', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the custom-issue-tracker integration */
export async function getCustomIssueTrackerProjectIntegration() {
  // #region getCustomIssueTrackerProjectIntegration
  try {
    const customIssueTrackerIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/custom-issue-tracker', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(
      customIssueTrackerIntegration.title,
      customIssueTrackerIntegration.id,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the custom-issue-tracker integration */
export async function updateCustomIssueTrackerProjectIntegration() {
  // #region updateCustomIssueTrackerProjectIntegration
  const customIssueTrackerIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/custom-issue-tracker', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        new_issue_url: 'https://tracker.example.com/issues/new',
        issues_url: 'https://tracker.example.com/issues/:id',
        project_url: 'https://tracker.example.com/projects/my-project',
      },
    }),
  );
  console.log(
    customIssueTrackerIntegration.title,
    customIssueTrackerIntegration.id,
  );
  // #endregion
}

/** Delete the custom-issue-tracker integration */
export async function deleteCustomIssueTrackerProjectIntegration() {
  // #region deleteCustomIssueTrackerProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/custom-issue-tracker', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the build-pipeline-ci integration */
export async function getBuildPipelineCiProjectIntegration() {
  // #region getBuildPipelineCiProjectIntegration
  try {
    const buildPipelineCiIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/build-pipeline-ci', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(
      buildPipelineCiIntegration.title,
      buildPipelineCiIntegration.id,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the build-pipeline-ci integration */
export async function updateBuildPipelineCiProjectIntegration() {
  // #region updateBuildPipelineCiProjectIntegration
  const buildPipelineCiIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/build-pipeline-ci', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        token: process.env.INTEGRATION_TOKEN ?? '',
        project_url: 'https://tracker.example.com/projects/my-project',
      },
    }),
  );
  console.log(buildPipelineCiIntegration.title, buildPipelineCiIntegration.id);
  // #endregion
}

/** Delete the build-pipeline-ci integration */
export async function deleteBuildPipelineCiProjectIntegration() {
  // #region deleteBuildPipelineCiProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/build-pipeline-ci', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the group-chat-room integration */
export async function getGroupChatRoomProjectIntegration() {
  // #region getGroupChatRoomProjectIntegration
  try {
    const groupChatRoomIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/group-chat-room', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(groupChatRoomIntegration.title, groupChatRoomIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the group-chat-room integration */
export async function updateGroupChatRoomProjectIntegration() {
  // #region updateGroupChatRoomProjectIntegration
  const groupChatRoomIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/group-chat-room', {
      params: { path: { id: 'my-group/my-project' } },
      body: { token: process.env.INTEGRATION_TOKEN ?? '' },
    }),
  );
  console.log(groupChatRoomIntegration.title, groupChatRoomIntegration.id);
  // #endregion
}

/** Delete the group-chat-room integration */
export async function deleteGroupChatRoomProjectIntegration() {
  // #region deleteGroupChatRoomProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/group-chat-room', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the team-chat-a integration */
export async function getTeamChatAProjectIntegration() {
  // #region getTeamChatAProjectIntegration
  try {
    const teamChatAIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/team-chat-a', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(teamChatAIntegration.title, teamChatAIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the team-chat-a integration */
export async function updateTeamChatAProjectIntegration() {
  // #region updateTeamChatAProjectIntegration
  const teamChatAIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/team-chat-a', {
      params: { path: { id: 'my-group/my-project' } },
      body: { webhook: 'https://chat.example.com/hooks/T0001/B0001/abcdef' },
    }),
  );
  console.log(teamChatAIntegration.title, teamChatAIntegration.id);
  // #endregion
}

/** Delete the team-chat-a integration */
export async function deleteTeamChatAProjectIntegration() {
  // #region deleteTeamChatAProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/team-chat-a', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the team-chat-b integration */
export async function getTeamChatBProjectIntegration() {
  // #region getTeamChatBProjectIntegration
  try {
    const teamChatBIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/team-chat-b', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(teamChatBIntegration.title, teamChatBIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the team-chat-b integration */
export async function updateTeamChatBProjectIntegration() {
  // #region updateTeamChatBProjectIntegration
  const teamChatBIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/team-chat-b', {
      params: { path: { id: 'my-group/my-project' } },
      body: { webhook: 'https://chat.example.com/hooks/T0001/B0001/abcdef' },
    }),
  );
  console.log(teamChatBIntegration.title, teamChatBIntegration.id);
  // #endregion
}

/** Delete the team-chat-b integration */
export async function deleteTeamChatBProjectIntegration() {
  // #region deleteTeamChatBProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/team-chat-b', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the team-chat-c integration */
export async function getTeamChatCProjectIntegration() {
  // #region getTeamChatCProjectIntegration
  try {
    const teamChatCIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/team-chat-c', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(teamChatCIntegration.title, teamChatCIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the team-chat-c integration */
export async function updateTeamChatCProjectIntegration() {
  // #region updateTeamChatCProjectIntegration
  const teamChatCIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/team-chat-c', {
      params: { path: { id: 'my-group/my-project' } },
      body: { webhook: 'https://chat.example.com/hooks/T0001/B0001/abcdef' },
    }),
  );
  console.log(teamChatCIntegration.title, teamChatCIntegration.id);
  // #endregion
}

/** Delete the team-chat-c integration */
export async function deleteTeamChatCProjectIntegration() {
  // #region deleteTeamChatCProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/team-chat-c', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the ci-server-b integration */
export async function getCiServerBProjectIntegration() {
  // #region getCiServerBProjectIntegration
  try {
    const ciServerBIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/ci-server-b', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(ciServerBIntegration.title, ciServerBIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the ci-server-b integration */
export async function updateCiServerBProjectIntegration() {
  // #region updateCiServerBProjectIntegration
  const ciServerBIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/ci-server-b', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        token: process.env.INTEGRATION_TOKEN ?? '',
        ci_server_url: 'https://ci.example.com',
      },
    }),
  );
  console.log(ciServerBIntegration.title, ciServerBIntegration.id);
  // #endregion
}

/** Delete the ci-server-b integration */
export async function deleteCiServerBProjectIntegration() {
  // #region deleteCiServerBProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/ci-server-b', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the emails-on-push integration */
export async function getEmailsOnPushProjectIntegration() {
  // #region getEmailsOnPushProjectIntegration
  try {
    const emailsOnPushIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/emails-on-push', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(emailsOnPushIntegration.title, emailsOnPushIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the emails-on-push integration */
export async function updateEmailsOnPushProjectIntegration() {
  // #region updateEmailsOnPushProjectIntegration
  const emailsOnPushIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/emails-on-push', {
      params: { path: { id: 'my-group/my-project' } },
      body: { recipients: 'dev@example.com ops@example.com' },
    }),
  );
  console.log(emailsOnPushIntegration.title, emailsOnPushIntegration.id);
  // #endregion
}

/** Delete the emails-on-push integration */
export async function deleteEmailsOnPushProjectIntegration() {
  // #region deleteEmailsOnPushProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/emails-on-push', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the external-wiki integration */
export async function getExternalWikiProjectIntegration() {
  // #region getExternalWikiProjectIntegration
  try {
    const externalWikiIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/external-wiki', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(externalWikiIntegration.title, externalWikiIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the external-wiki integration */
export async function updateExternalWikiProjectIntegration() {
  // #region updateExternalWikiProjectIntegration
  const externalWikiIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/external-wiki', {
      params: { path: { id: 'my-group/my-project' } },
      body: { external_wiki_url: 'https://wiki.example.com/my-project' },
    }),
  );
  console.log(externalWikiIntegration.title, externalWikiIntegration.id);
  // #endregion
}

/** Delete the external-wiki integration */
export async function deleteExternalWikiProjectIntegration() {
  // #region deleteExternalWikiProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/external-wiki', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the team-inbox-a integration */
export async function getTeamInboxAProjectIntegration() {
  // #region getTeamInboxAProjectIntegration
  try {
    const teamInboxAIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/team-inbox-a', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(teamInboxAIntegration.title, teamInboxAIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the team-inbox-a integration */
export async function updateTeamInboxAProjectIntegration() {
  // #region updateTeamInboxAProjectIntegration
  const teamInboxAIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/team-inbox-a', {
      params: { path: { id: 'my-group/my-project' } },
      body: { token: process.env.INTEGRATION_TOKEN ?? '' },
    }),
  );
  console.log(teamInboxAIntegration.title, teamInboxAIntegration.id);
  // #endregion
}

/** Delete the team-inbox-a integration */
export async function deleteTeamInboxAProjectIntegration() {
  // #region deleteTeamInboxAProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/team-inbox-a', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}

/** Get the code-host-status integration */
export async function getCodeHostStatusProjectIntegration() {
  // #region getCodeHostStatusProjectIntegration
  try {
    const codeHostStatusIntegration = await unwrap(
      api.GET('/projects/{id}/integrations/code-host-status', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(codeHostStatusIntegration.title, codeHostStatusIntegration.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Set up or update the code-host-status integration */
export async function updateCodeHostStatusProjectIntegration() {
  // #region updateCodeHostStatusProjectIntegration
  const codeHostStatusIntegration = await unwrap(
    api.PUT('/projects/{id}/integrations/code-host-status', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        token: process.env.INTEGRATION_TOKEN ?? '',
        repository_url: 'https://code.example.com/my-group/my-project',
      },
    }),
  );
  console.log(codeHostStatusIntegration.title, codeHostStatusIntegration.id);
  // #endregion
}

/** Delete the code-host-status integration */
export async function deleteCodeHostStatusProjectIntegration() {
  // #region deleteCodeHostStatusProjectIntegration
  await unwrap(
    api.DELETE('/projects/{id}/integrations/code-host-status', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  );
  // #endregion
}
