// What makes hooks fire: a change of the repository's refs (push and tag push events), a change of a
// pipeline's status (pipeline events) and a merge request's opening, update, closing, reopening or merge
// (merge request events). Each runs in the request or runner step that made the change: it
// picks the hooks the event concerns (flags, branch filter, not backed off), builds the body once and queues
// the deliveries.
// Projects without such hooks cost one query.
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import type { BranchCommitInfo } from '../../core/git/repository.js';
import { GitError } from '../../core/git/repository.js';
import { type RefChange, ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { labelsOf, usersOf } from '../issuables/index.js';
import { type MergeRequestChange, onMergeRequestEvent } from '../mergeRequests/index.js';
import { onPipelineStatusChange } from '../pipelines/index.js';
import { loadProtectionRules, matchingRules, ruleMatches } from '../protectedBranches/index.js';
import { hookExecutable } from './backoff.js';
import { queueDeliveries } from './delivery.js';
import { buildMergeRequestPayload, MERGE_REQUEST_HOOK } from './mergeRequestPayload.js';
import { buildPipelinePayload, buildPushPayload, PUSH_COMMIT_LIMIT, pushEventName } from './payloads.js';
import {
  findHookPipeline,
  findHookProject,
  findHookUser,
  type HookProject,
  type HookRow,
  type HookUser,
  hooksWithAnyFlag,
} from './store.js';

const BRANCH_PREFIX = 'refs/heads/';

/** The project's hooks with one of the flags on that are not backed off (backoff.ts): those events go to. */
async function executableHooks(
  context: ServerContext,
  projectId: number,
  flags: Parameters<typeof hooksWithAnyFlag>[2],
): Promise<HookRow[]> {
  const now = Date.now();
  return (await hooksWithAnyFlag(context.db, projectId, flags)).filter((hook) => hookExecutable(hook, now));
}

/**
 * Whether a push to `branch` fires a hook with this filter (GitLab's ActiveHookFilter with the wildcard
 * strategy): an empty filter takes every branch, otherwise the name or wildcard must match the whole name.
 */
export function branchFilterMatches(filter: string, branch: string): boolean {
  return filter === '' || ruleMatches(filter, branch);
}

/** The hooks a push of `ref` goes to. */
export function hooksForPush(hooks: readonly HookRow[], ref: string): HookRow[] {
  if (pushEventName(ref) === 'Tag Push Hook') return hooks.filter((hook) => hook.tag_push_events === 1);
  if (!ref.startsWith(BRANCH_PREFIX)) return [];
  const branch = ref.slice(BRANCH_PREFIX.length);
  return hooks.filter(
    (hook) => hook.push_events === 1 && branchFilterMatches(hook.push_events_branch_filter, branch),
  );
}

/**
 * The commits a push brings, as GitLab's Git::BranchHooksService counts them: all of them for a new
 * default branch, those not on the default branch for another new branch, those since `before` for an
 * update, none for a deletion.
 */
async function pushedCommits(
  context: ServerContext,
  project: HookProject,
  change: RefChange,
): Promise<{ commits: BranchCommitInfo[]; total: number }> {
  if (change.after === ZERO_SHA) return { commits: [], total: 0 };
  const newBranch = change.before === ZERO_SHA;
  if (change.commits !== undefined && !newBranch)
    return { commits: change.commits.slice(-PUSH_COMMIT_LIMIT), total: change.commits.length };
  const defaultRef = `${BRANCH_PREFIX}${project.default_branch}`;
  const exclude = !newBranch ? change.before : change.ref === defaultRef ? null : defaultRef;
  try {
    return await repositoryOf(context, project).commitsInRange(change.after, exclude, PUSH_COMMIT_LIMIT);
  } catch (error) {
    // A repository git cannot read right now (being moved) still gets its event, without commits.
    if (error instanceof GitError) return { commits: [], total: 0 };
    throw error;
  }
}

async function onRefsChanged(
  context: ServerContext,
  baseUrl: string,
  projectId: number,
  refs: readonly RefChange[],
): Promise<void> {
  if (refs.length === 0) return;
  const hooks = await executableHooks(context, projectId, ['push_events', 'tag_push_events']);
  if (hooks.length === 0) return;
  for (const change of refs) {
    const targets = hooksForPush(hooks, change.ref);
    if (targets.length === 0) continue;
    const payload = await pushPayloadFor(context, baseUrl, projectId, change);
    if (!payload) return;
    await queueDeliveries(context, targets, pushEventName(change.ref), payload);
  }
}

type PushPayload = ReturnType<typeof buildPushPayload>;

/** The payloads built per ref change and base URL: the hooks and the integrations of one push share one. */
const pushPayloads = new WeakMap<RefChange, Map<string, Promise<PushPayload | null>>>();

/**
 * The push payload of one ref change (GitLab's Gitlab::DataBuilder::Push), null when its project or user is
 * gone. Project integrations send it too: it is built once per change (read-only for its consumers).
 */
export function pushPayloadFor(
  context: ServerContext,
  baseUrl: string,
  projectId: number,
  change: RefChange,
): Promise<PushPayload | null> {
  const built = pushPayloads.get(change) ?? new Map<string, Promise<PushPayload | null>>();
  pushPayloads.set(change, built);
  let payload = built.get(baseUrl);
  if (payload === undefined) {
    payload = buildPushPayloadFor(context, baseUrl, projectId, change);
    built.set(baseUrl, payload);
  }
  return payload;
}

/** What the consumers of one push read of its project and user: read once per ref change, then shared. */
const pushReads = new WeakMap<
  RefChange,
  Promise<[HookProject | undefined, HookUser | undefined]> & { projectId: number }
>();

/**
 * The project and user of a push (`change` of project `projectId`), read by its first consumer (its push
 * event, the merge request events of its refresh) and shared with the others.
 */
function readsOfPush(
  context: ServerContext,
  projectId: number,
  change: RefChange,
): Promise<[HookProject | undefined, HookUser | undefined]> {
  const known = pushReads.get(change);
  if (known?.projectId === projectId) return known;
  const reads = Object.assign(
    Promise.all([findHookProject(context.db, projectId), findHookUser(context.db, change.userId)]),
    { projectId },
  );
  pushReads.set(change, reads);
  return reads;
}

async function buildPushPayloadFor(
  context: ServerContext,
  baseUrl: string,
  projectId: number,
  change: RefChange,
): Promise<PushPayload | null> {
  const [project, user] = await readsOfPush(context, projectId, change);
  if (!project || !user) return null;
  const { commits, total } = await pushedCommits(context, project, change);
  return buildPushPayload({ baseUrl, project, user, change, commits, totalCommits: total });
}

async function onPipelineStatus(context: ServerContext, baseUrl: string, pipelineId: number): Promise<void> {
  const found = await findHookPipeline(context.db, pipelineId);
  if (!found) return;
  const hooks = await executableHooks(context, found.pipeline.project_id, ['pipeline_events']);
  if (hooks.length === 0) return;
  const payload = await pipelinePayloadFor(context, baseUrl, pipelineId);
  if (payload) await queueDeliveries(context, hooks, 'Pipeline Hook', payload);
}

/**
 * The pipeline payload of a pipeline as it is now (GitLab's Gitlab::DataBuilder::Pipeline), null when the
 * pipeline or its project is gone. Project integrations send it too.
 */
export async function pipelinePayloadFor(
  context: ServerContext,
  baseUrl: string,
  pipelineId: number,
): Promise<ReturnType<typeof buildPipelinePayload> | null> {
  const found = await findHookPipeline(context.db, pipelineId);
  if (!found) return null;
  const [project, user] = await Promise.all([
    findHookProject(context.db, found.pipeline.project_id),
    // A hard deletion of its user leaves a pipeline without one (the payload's `user` is then null).
    found.pipeline.user_id === null ? undefined : findHookUser(context.db, found.pipeline.user_id),
  ]);
  if (!project) return null;
  const commit = await commitOf(context, project, found.pipeline.sha);
  const protectedRef =
    found.pipeline.tag === 0 &&
    matchingRules(await loadProtectionRules(context.db, project.id), found.pipeline.ref).length > 0;
  return buildPipelinePayload({ baseUrl, project, user: user ?? null, ...found, commit, protectedRef });
}

/** The commit `sha` of the project's repository; null when git cannot read it (a repository being moved). */
async function commitOf(
  context: ServerContext,
  project: HookProject,
  sha: string,
): Promise<BranchCommitInfo | null> {
  try {
    return await repositoryOf(context, project).commitInfo(sha);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    return null;
  }
}

async function onMergeRequest(
  context: ServerContext,
  baseUrl: string,
  change: MergeRequestChange,
): Promise<void> {
  const row = change.mergeRequest;
  const hooks = await executableHooks(context, row.project_id, ['merge_requests_events']);
  if (hooks.length === 0) return;
  const payload = await mergeRequestPayloadFor(context, baseUrl, change);
  if (payload) await queueDeliveries(context, hooks, MERGE_REQUEST_HOOK, payload);
}

/** The merge request payload of a change (null when its project or user is gone). */
export async function mergeRequestPayloadFor(
  context: ServerContext,
  baseUrl: string,
  change: MergeRequestChange,
): Promise<ReturnType<typeof buildMergeRequestPayload> | null> {
  const row = change.mergeRequest;
  // A change a push made (a refresh) shares the push's reads: its project, its user (the pusher) and the
  // commits it brought, the merge request's new head among them.
  const push = change.push?.userId === change.userId ? change.push : undefined;
  const [[project, user], labels, assignees] = await Promise.all([
    push
      ? readsOfPush(context, row.project_id, push)
      : Promise.all([findHookProject(context.db, row.project_id), findHookUser(context.db, change.userId)]),
    labelsOf(context.db, 'MergeRequest', [row.id]),
    usersOf(context.db, 'MergeRequest', 'assignee', [row.id]),
  ]);
  if (!project || !user) return null;
  const pushed = push?.commits?.find((commit) => commit.id === row.sha);
  const lastCommit = pushed ?? (row.sha === null ? null : await commitOf(context, project, row.sha));
  return buildMergeRequestPayload({
    baseUrl,
    project,
    user,
    change,
    labels: labels.get(row.id) ?? [],
    assignees: assignees.get(row.id) ?? [],
    lastCommit,
  });
}

/** Subscribes the hooks to repository, pipeline and merge request changes. `baseUrl` starts the links in the payloads. */
export function registerHookEvents(context: ServerContext, baseUrl: string): void {
  context.repositoryEvents.onChange((projectId, refs) => onRefsChanged(context, baseUrl, projectId, refs));
  onPipelineStatusChange(context, (pipelineId) => onPipelineStatus(context, baseUrl, pipelineId));
  onMergeRequestEvent(context, (change) => onMergeRequest(context, baseUrl, change));
}
