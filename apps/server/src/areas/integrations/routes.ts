// Handlers of the integrations area: the list and, per slug, GET, PUT and DELETE, under both names GitLab
// serves them at: `/projects/:id/services/…` (the seeds) and `/projects/:id/integrations/…` (GitLab ≥ 14.0).
// One entry per operationId; the operations of a slug share one function per method.
import type { Response } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { pathParam } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody } from '../../core/http/types.js';
import type { Slug, UpdateOperation } from './catalog.js';
import { getIntegration, listIntegrations, putIntegration, removeIntegration } from './service.js';

export function integrationsHandlers(context: ServerContext): OperationHandlers {
  const list = async (req: ApiRequest, res: Response) => {
    const page = readPage(req);
    const { items, total } = await listIntegrations(context, callerOf(res), pathParam(req, 'id'), page);
    const body: ResponseBody<'listProjectIntegrations' | 'listActiveProjectIntegrations', 200> = items;
    setPaginationHeaders(req, res, page, total);
    res.json(body);
  };
  const get = async (slug: Slug, req: ApiRequest, res: Response) => {
    res.json(await getIntegration(context, callerOf(res), pathParam(req, 'id'), slug));
  };
  const update = async (slug: Slug, req: ApiRequest, res: Response) => {
    // Validated against the slug's body schema (both families take the same one).
    const body = req.body as RequestBody<UpdateOperation<typeof slug>>;
    res.json(await putIntegration(context, callerOf(res), pathParam(req, 'id'), slug, body));
  };
  const remove = async (slug: Slug, req: ApiRequest, res: Response) => {
    await removeIntegration(context, callerOf(res), pathParam(req, 'id'), slug);
    res.status(204).end();
  };

  return {
    listProjectIntegrations: list,
    listActiveProjectIntegrations: list,
    getCommitTaskCommentsIntegration: (req, res) => get('commit-task-comments', req, res),
    updateCommitTaskCommentsIntegration: (req, res) => update('commit-task-comments', req, res),
    deleteCommitTaskCommentsIntegration: (req, res) => remove('commit-task-comments', req, res),
    getSourceCommitsPmIntegration: (req, res) => get('source-commits-pm', req, res),
    updateSourceCommitsPmIntegration: (req, res) => update('source-commits-pm', req, res),
    deleteSourceCommitsPmIntegration: (req, res) => remove('source-commits-pm', req, res),
    getBuildServerAIntegration: (req, res) => get('build-server-a', req, res),
    updateBuildServerAIntegration: (req, res) => update('build-server-a', req, res),
    deleteBuildServerAIntegration: (req, res) => remove('build-server-a', req, res),
    getIssueTrackerAIntegration: (req, res) => get('issue-tracker-a', req, res),
    updateIssueTrackerAIntegration: (req, res) => update('issue-tracker-a', req, res),
    deleteIssueTrackerAIntegration: (req, res) => remove('issue-tracker-a', req, res),
    getCustomIssueTrackerIntegration: (req, res) => get('custom-issue-tracker', req, res),
    updateCustomIssueTrackerIntegration: (req, res) => update('custom-issue-tracker', req, res),
    deleteCustomIssueTrackerIntegration: (req, res) => remove('custom-issue-tracker', req, res),
    getBuildPipelineCiIntegration: (req, res) => get('build-pipeline-ci', req, res),
    updateBuildPipelineCiIntegration: (req, res) => update('build-pipeline-ci', req, res),
    deleteBuildPipelineCiIntegration: (req, res) => remove('build-pipeline-ci', req, res),
    getGroupChatRoomIntegration: (req, res) => get('group-chat-room', req, res),
    updateGroupChatRoomIntegration: (req, res) => update('group-chat-room', req, res),
    deleteGroupChatRoomIntegration: (req, res) => remove('group-chat-room', req, res),
    getTeamChatAIntegration: (req, res) => get('team-chat-a', req, res),
    updateTeamChatAIntegration: (req, res) => update('team-chat-a', req, res),
    deleteTeamChatAIntegration: (req, res) => remove('team-chat-a', req, res),
    getTeamChatBIntegration: (req, res) => get('team-chat-b', req, res),
    updateTeamChatBIntegration: (req, res) => update('team-chat-b', req, res),
    deleteTeamChatBIntegration: (req, res) => remove('team-chat-b', req, res),
    getTeamChatCIntegration: (req, res) => get('team-chat-c', req, res),
    updateTeamChatCIntegration: (req, res) => update('team-chat-c', req, res),
    deleteTeamChatCIntegration: (req, res) => remove('team-chat-c', req, res),
    getCiServerBIntegration: (req, res) => get('ci-server-b', req, res),
    updateCiServerBIntegration: (req, res) => update('ci-server-b', req, res),
    deleteCiServerBIntegration: (req, res) => remove('ci-server-b', req, res),
    getEmailsOnPushIntegration: (req, res) => get('emails-on-push', req, res),
    updateEmailsOnPushIntegration: (req, res) => update('emails-on-push', req, res),
    deleteEmailsOnPushIntegration: (req, res) => remove('emails-on-push', req, res),
    getExternalWikiIntegration: (req, res) => get('external-wiki', req, res),
    updateExternalWikiIntegration: (req, res) => update('external-wiki', req, res),
    deleteExternalWikiIntegration: (req, res) => remove('external-wiki', req, res),
    getTeamInboxAIntegration: (req, res) => get('team-inbox-a', req, res),
    updateTeamInboxAIntegration: (req, res) => update('team-inbox-a', req, res),
    deleteTeamInboxAIntegration: (req, res) => remove('team-inbox-a', req, res),
    getCodeHostStatusIntegration: (req, res) => get('code-host-status', req, res),
    updateCodeHostStatusIntegration: (req, res) => update('code-host-status', req, res),
    deleteCodeHostStatusIntegration: (req, res) => remove('code-host-status', req, res),
    getCommitTaskCommentsProjectIntegration: (req, res) => get('commit-task-comments', req, res),
    updateCommitTaskCommentsProjectIntegration: (req, res) => update('commit-task-comments', req, res),
    deleteCommitTaskCommentsProjectIntegration: (req, res) => remove('commit-task-comments', req, res),
    getSourceCommitsPmProjectIntegration: (req, res) => get('source-commits-pm', req, res),
    updateSourceCommitsPmProjectIntegration: (req, res) => update('source-commits-pm', req, res),
    deleteSourceCommitsPmProjectIntegration: (req, res) => remove('source-commits-pm', req, res),
    getBuildServerAProjectIntegration: (req, res) => get('build-server-a', req, res),
    updateBuildServerAProjectIntegration: (req, res) => update('build-server-a', req, res),
    deleteBuildServerAProjectIntegration: (req, res) => remove('build-server-a', req, res),
    getIssueTrackerAProjectIntegration: (req, res) => get('issue-tracker-a', req, res),
    updateIssueTrackerAProjectIntegration: (req, res) => update('issue-tracker-a', req, res),
    deleteIssueTrackerAProjectIntegration: (req, res) => remove('issue-tracker-a', req, res),
    getCustomIssueTrackerProjectIntegration: (req, res) => get('custom-issue-tracker', req, res),
    updateCustomIssueTrackerProjectIntegration: (req, res) => update('custom-issue-tracker', req, res),
    deleteCustomIssueTrackerProjectIntegration: (req, res) => remove('custom-issue-tracker', req, res),
    getBuildPipelineCiProjectIntegration: (req, res) => get('build-pipeline-ci', req, res),
    updateBuildPipelineCiProjectIntegration: (req, res) => update('build-pipeline-ci', req, res),
    deleteBuildPipelineCiProjectIntegration: (req, res) => remove('build-pipeline-ci', req, res),
    getGroupChatRoomProjectIntegration: (req, res) => get('group-chat-room', req, res),
    updateGroupChatRoomProjectIntegration: (req, res) => update('group-chat-room', req, res),
    deleteGroupChatRoomProjectIntegration: (req, res) => remove('group-chat-room', req, res),
    getTeamChatAProjectIntegration: (req, res) => get('team-chat-a', req, res),
    updateTeamChatAProjectIntegration: (req, res) => update('team-chat-a', req, res),
    deleteTeamChatAProjectIntegration: (req, res) => remove('team-chat-a', req, res),
    getTeamChatBProjectIntegration: (req, res) => get('team-chat-b', req, res),
    updateTeamChatBProjectIntegration: (req, res) => update('team-chat-b', req, res),
    deleteTeamChatBProjectIntegration: (req, res) => remove('team-chat-b', req, res),
    getTeamChatCProjectIntegration: (req, res) => get('team-chat-c', req, res),
    updateTeamChatCProjectIntegration: (req, res) => update('team-chat-c', req, res),
    deleteTeamChatCProjectIntegration: (req, res) => remove('team-chat-c', req, res),
    getCiServerBProjectIntegration: (req, res) => get('ci-server-b', req, res),
    updateCiServerBProjectIntegration: (req, res) => update('ci-server-b', req, res),
    deleteCiServerBProjectIntegration: (req, res) => remove('ci-server-b', req, res),
    getEmailsOnPushProjectIntegration: (req, res) => get('emails-on-push', req, res),
    updateEmailsOnPushProjectIntegration: (req, res) => update('emails-on-push', req, res),
    deleteEmailsOnPushProjectIntegration: (req, res) => remove('emails-on-push', req, res),
    getExternalWikiProjectIntegration: (req, res) => get('external-wiki', req, res),
    updateExternalWikiProjectIntegration: (req, res) => update('external-wiki', req, res),
    deleteExternalWikiProjectIntegration: (req, res) => remove('external-wiki', req, res),
    getTeamInboxAProjectIntegration: (req, res) => get('team-inbox-a', req, res),
    updateTeamInboxAProjectIntegration: (req, res) => update('team-inbox-a', req, res),
    deleteTeamInboxAProjectIntegration: (req, res) => remove('team-inbox-a', req, res),
    getCodeHostStatusProjectIntegration: (req, res) => get('code-host-status', req, res),
    updateCodeHostStatusProjectIntegration: (req, res) => update('code-host-status', req, res),
    deleteCodeHostStatusProjectIntegration: (req, res) => remove('code-host-status', req, res),
  };
}
