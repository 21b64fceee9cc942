// What makes integrations fire: the project hooks' event sources (a change of the repository's refs, a change
// of a pipeline's status, a merge request's opening, closing, reopening or merge), their payloads, and the integrations' flags and branch settings. Each runs in the
// request or runner step that made the change and only queues jobs (delivery.ts sends them). Projects
// without an integration that fires cost one query.
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../../core/context.js';
import { type RefChange, ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { type MergeRequestChange, onMergeRequestEvent } from '../mergeRequests/index.js';
import { onPipelineStatusChange } from '../pipelines/index.js';
import {
  mergeRequestPayloadFor,
  pipelinePayloadFor,
  pushEventName,
  pushPayloadFor,
} from '../projectHooks/index.js';
import { loadProtectionRules, matchingRules } from '../protectedBranches/index.js';
import { CATALOG, type Firing, type Slug } from './catalog.js';
import { type Message, type PushDiffRange, queueMessage } from './delivery.js';
import {
  chatMergeRequestText,
  chatPipelineText,
  chatPushText,
  commitStatusBody,
  type PipelinePayload,
  type PushPayload,
  pushEmailSubject,
  pushEmailText,
} from './messages.js';
import { flag, readSettings, type Settings, text } from './settings.js';
import { activeIntegrationsWithAnyFlag, type IntegrationRow, pipelineProjectId } from './store.js';

const BRANCH_PREFIX = 'refs/heads/';

function firingOf(row: IntegrationRow): Firing | undefined {
  return row.slug in CATALOG ? CATALOG[row.slug as Slug].firing : undefined;
}

/**
 * Whether `branches_to_be_notified` takes `branch` (GitLab's `notify_for_branch?`): all branches, the
 * default one, the protected ones, or both of those.
 */
async function branchNotified(
  context: ServerContext,
  projectId: number,
  defaultBranch: string,
  setting: string,
  branch: string,
): Promise<boolean> {
  if (setting === '' || setting === 'all') return true;
  const isDefault = branch === defaultBranch;
  if (setting === 'default') return isDefault;
  const isProtected = matchingRules(await loadProtectionRules(context.db, projectId), branch).length > 0;
  if (setting === 'protected') return isProtected;
  return isDefault || isProtected;
}

/**
 * What a push e-mail's diff compares, read when the e-mail is sent: a new branch against the default branch,
 * an update against `before`; null for a tag or a deletion.
 */
function pushDiffRange(projectId: number, payload: PushPayload): PushDiffRange | null {
  if (payload.after === ZERO_SHA || !payload.ref.startsWith(BRANCH_PREFIX)) return null;
  const defaultRef = `${BRANCH_PREFIX}${payload.project.default_branch}`;
  const from = payload.before !== ZERO_SHA ? payload.before : payload.ref === defaultRef ? null : defaultRef;
  return { projectId, from, to: payload.after };
}

/** The e-mails of a push, one per recipient (GitLab's EmailsOnPushWorker sends each its own). */
function pushEmails(baseUrl: string, projectId: number, settings: Settings, payload: PushPayload): Message[] {
  const recipients = text(settings, 'recipients')
    .split(/[\s,]+/)
    .filter(Boolean);
  if (recipients.length === 0) return [];
  // The diff is read by the job that writes the e-mail (delivery.ts), not on the push's request.
  const diff = flag(settings, 'disable_diffs') ? null : pushDiffRange(projectId, payload);
  const host = new URL(baseUrl).hostname;
  const lastAuthor = payload.commits.at(-1)?.author;
  // With send_from_committer_email the e-mail comes from the last commit's author (when there is one).
  const from =
    flag(settings, 'send_from_committer_email') && lastAuthor?.email
      ? { name: lastAuthor.name, address: lastAuthor.email }
      : { name: payload.user_name, address: `noreply@${host}` };
  const subject = pushEmailSubject(payload);
  return recipients.map((to) => ({
    kind: 'email' as const,
    file: pushEmailText(payload, {
      from,
      to,
      subject,
      messageId: `${randomUUID()}@${host}`,
      date: new Date(),
      diff: null,
    }),
    ...(diff ? { diff } : {}),
  }));
}

/** What one integration sends about one push (nothing when its settings leave the push out). */
async function pushMessages(
  context: ServerContext,
  baseUrl: string,
  projectId: number,
  row: IntegrationRow,
  payload: PushPayload,
): Promise<Message[]> {
  const tag = pushEventName(payload.ref) === 'Tag Push Hook';
  if (tag ? row.tag_push_events !== 1 : row.push_events !== 1) return [];
  const settings = readSettings(row);
  const deleted = payload.after === ZERO_SHA;
  const branch = payload.ref.slice(BRANCH_PREFIX.length);
  const notified = () =>
    branchNotified(
      context,
      projectId,
      payload.project.default_branch,
      text(settings, 'branches_to_be_notified'),
      branch,
    );
  switch (firingOf(row)) {
    case 'chat':
      // Tag pushes always notify; branches as branches_to_be_notified says.
      if (!tag && !(await notified())) return [];
      return [{ kind: 'chat', text: chatPushText(payload) }];
    case 'buildTrigger':
      return tag || deleted ? [] : [{ kind: 'buildTrigger' }];
    case 'ciHook': {
      if (deleted) return [];
      const [owner = '', ...rest] = payload.project.path_with_namespace.split('/');
      return [
        {
          kind: 'ciHook',
          event: pushEventName(payload.ref),
          owner,
          name: rest.join('/'),
          body: JSON.stringify(payload),
        },
      ];
    }
    case 'email':
      if (!tag && !(await notified())) return [];
      return pushEmails(baseUrl, projectId, settings, payload);
    default:
      return [];
  }
}

async function onRefsChanged(
  context: ServerContext,
  baseUrl: string,
  projectId: number,
  refs: readonly RefChange[],
): Promise<void> {
  if (refs.length === 0) return;
  const rows = (
    await activeIntegrationsWithAnyFlag(context.db, projectId, ['push_events', 'tag_push_events'])
  ).filter((row) => firingOf(row) !== undefined);
  if (rows.length === 0) return;
  for (const change of refs) {
    const payload = await pushPayloadFor(context, baseUrl, projectId, change);
    if (!payload) return;
    for (const row of rows) {
      for (const message of await pushMessages(context, baseUrl, projectId, row, payload))
        await queueMessage(context, row.id, message);
    }
  }
}

/** What one integration sends about a pipeline's new status. */
async function pipelineMessages(
  context: ServerContext,
  baseUrl: string,
  row: IntegrationRow,
  payload: PipelinePayload,
): Promise<Message[]> {
  const pipeline = payload.object_attributes;
  const settings = readSettings(row);
  switch (firingOf(row)) {
    case 'chat': {
      // Finished pipelines only: failed ones always, passed ones unless only broken ones are wanted.
      const wanted =
        pipeline.status === 'failed' ||
        (pipeline.status === 'success' && !flag(settings, 'notify_only_broken_pipelines'));
      if (!wanted) return [];
      if (
        !pipeline.tag &&
        !(await branchNotified(
          context,
          payload.project.id,
          payload.project.default_branch,
          text(settings, 'branches_to_be_notified'),
          pipeline.ref,
        ))
      )
        return [];
      return [{ kind: 'chat', text: chatPipelineText(payload) }];
    }
    case 'commitStatus': {
      const host = new URL(baseUrl).host;
      const body = commitStatusBody(payload, host, flag(settings, 'static_context'));
      return [{ kind: 'commitStatus', sha: pipeline.sha, body: JSON.stringify(body) }];
    }
    default:
      return [];
  }
}

async function onPipelineStatus(context: ServerContext, baseUrl: string, pipelineId: number): Promise<void> {
  const projectId = await pipelineProjectId(context.db, pipelineId);
  if (projectId === undefined) return;
  const rows = (await activeIntegrationsWithAnyFlag(context.db, projectId, ['pipeline_events'])).filter(
    (row) => firingOf(row) === 'chat' || firingOf(row) === 'commitStatus',
  );
  if (rows.length === 0) return;
  const payload = await pipelinePayloadFor(context, baseUrl, pipelineId);
  if (!payload) return;
  for (const row of rows) {
    for (const message of await pipelineMessages(context, baseUrl, row, payload))
      await queueMessage(context, row.id, message);
  }
}

/** A merge request event to the team chats with `merge_requests_events` (GitLab sends none for an update). */
async function onMergeRequest(
  context: ServerContext,
  baseUrl: string,
  change: MergeRequestChange,
): Promise<void> {
  if (change.action === 'update') return;
  const rows = (
    await activeIntegrationsWithAnyFlag(context.db, change.mergeRequest.project_id, ['merge_requests_events'])
  ).filter((row) => firingOf(row) === 'chat');
  if (rows.length === 0) return;
  const payload = await mergeRequestPayloadFor(context, baseUrl, change);
  if (!payload) return;
  for (const row of rows)
    await queueMessage(context, row.id, { kind: 'chat', text: chatMergeRequestText(payload) });
}

/**
 * Subscribes the integrations to repository, pipeline and merge request changes. `baseUrl` starts the links
 * they send.
 */
export function registerIntegrationEvents(context: ServerContext, baseUrl: string): void {
  context.repositoryEvents.onChange((projectId, refs) => onRefsChanged(context, baseUrl, projectId, refs));
  onPipelineStatusChange(context, (pipelineId) => onPipelineStatus(context, baseUrl, pipelineId));
  onMergeRequestEvent(context, (change) => onMergeRequest(context, baseUrl, change));
}
