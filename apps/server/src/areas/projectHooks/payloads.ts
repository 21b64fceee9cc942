// The bodies of hook deliveries, as GitLab's Gitlab::DataBuilder::Push and ::Pipeline build them (the seeds
// leave payloads "not shown"). Pure functions of what the event gathered: no database and no git here.
import type { BranchCommitInfo } from '../../core/git/repository.js';
import { type RefChange, ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { avatarUrl } from '../avatars/index.js';
import type { HookPipeline, HookPipelineJob, HookProject, HookUser } from './store.js';

/** GitLab sends at most the 20 newest commits of a push (and their total count). */
export const PUSH_COMMIT_LIMIT = 20;

/** GitLab's visibility_level numbers. */
const VISIBILITY_LEVELS: Record<string, number> = { private: 0, internal: 10, public: 20 };

/** The event header of a push: tags have their own event (and flag). */
export function pushEventName(ref: string): 'Push Hook' | 'Tag Push Hook' {
  return ref.startsWith('refs/tags/') ? 'Tag Push Hook' : 'Push Hook';
}

/** GitLab renders the times of pipeline hooks as `2026-01-12 09:15:00 UTC`. */
export function hookTime(iso: string | null): string | null {
  if (iso === null) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function projectUrl(baseUrl: string, project: HookProject): string {
  return `${baseUrl}/${project.namespace_full_path}/${project.path}`;
}

/** Project#hook_attrs; `backward` adds the deprecated duplicates that push payloads still carry. */
export function projectHookAttrs(baseUrl: string, project: HookProject, backward: boolean) {
  const webUrl = projectUrl(baseUrl, project);
  const fullPath = `${project.namespace_full_path}/${project.path}`;
  const sshUrl = `git@${new URL(baseUrl).hostname}:${fullPath}.git`;
  const httpUrl = `${webUrl}.git`;
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    web_url: webUrl,
    avatar_url: project.avatar ? `${baseUrl}${avatarUrl('project', project.id, project.avatar)}` : null,
    git_ssh_url: sshUrl,
    git_http_url: httpUrl,
    namespace: project.namespace_name,
    visibility_level: VISIBILITY_LEVELS[project.visibility] ?? 0,
    path_with_namespace: fullPath,
    default_branch: project.default_branch,
    ci_config_path: project.ci_config_path,
    ...(backward ? { homepage: webUrl, url: sshUrl, ssh_url: sshUrl, http_url: httpUrl } : {}),
  };
}

/** User#hook_attrs. The e-mail is GitLab's public e-mail, which users here do not set: empty. */
export function userHookAttrs(user: HookUser) {
  return { id: user.id, name: user.name, username: user.username, avatar_url: user.avatar_url, email: '' };
}

/** Commit#hook_attrs (without the changed files). */
export function commitHookAttrs(baseUrl: string, project: HookProject, commit: BranchCommitInfo) {
  return {
    id: commit.id,
    message: commit.message,
    title: commit.title,
    timestamp: commit.authored_date,
    url: `${projectUrl(baseUrl, project)}/-/commit/${commit.id}`,
    author: { name: commit.author_name, email: commit.author_email },
  };
}

export interface PushEvent {
  baseUrl: string;
  project: HookProject;
  user: HookUser;
  change: RefChange;
  /** The newest commits of the push (at most PUSH_COMMIT_LIMIT), oldest first. */
  commits: readonly BranchCommitInfo[];
  totalCommits: number;
}

/** Gitlab::DataBuilder::Push.build: object_kind `push` (or `tag_push`). */
export function buildPushPayload(event: PushEvent) {
  const { baseUrl, project, user, change } = event;
  const kind = pushEventName(change.ref) === 'Tag Push Hook' ? 'tag_push' : 'push';
  const attrs = projectHookAttrs(baseUrl, project, true);
  return {
    object_kind: kind,
    event_name: kind,
    before: change.before,
    after: change.after,
    ref: change.ref,
    // Null when the ref was deleted (nothing to check out).
    checkout_sha: change.after === ZERO_SHA ? null : change.after,
    message: null,
    user_id: user.id,
    user_name: user.name,
    user_username: user.username,
    user_email: '',
    user_avatar: user.avatar_url,
    project_id: project.id,
    project: attrs,
    commits: event.commits.map((commit) => commitHookAttrs(baseUrl, project, commit)),
    total_commits_count: event.totalCommits,
    push_options: {},
    // Deprecated in GitLab, still sent.
    repository: {
      name: attrs.name,
      url: attrs.url,
      description: attrs.description,
      homepage: attrs.homepage,
      git_http_url: attrs.git_http_url,
      git_ssh_url: attrs.git_ssh_url,
      visibility_level: attrs.visibility_level,
    },
  };
}

/** GitLab's label of a status (detailed_status): a successful pipeline has "passed". */
function statusLabel(status: string): string {
  return status === 'success' ? 'passed' : status;
}

/** Seconds between two timestamps, or null without both. */
function secondsBetween(from: string | null, to: string | null): number | null {
  if (from === null || to === null) return null;
  return Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);
}

/** Ci::Pipeline#queued_duration: whole seconds from creation to start, null before the start or when zero. */
function pipelineQueuedDuration(pipeline: HookPipeline): number | null {
  const seconds = secondsBetween(pipeline.created_at, pipeline.started_at);
  if (seconds === null || Number.isNaN(seconds)) return null;
  return Math.trunc(seconds) || null;
}

export interface PipelineEvent {
  baseUrl: string;
  project: HookProject;
  /** Who started the pipeline (null when the user is gone). */
  user: HookUser | null;
  pipeline: HookPipeline;
  jobs: readonly HookPipelineJob[];
  variables: readonly { key: string; value: string }[];
  /** The pipeline's commit, null when git no longer has it. */
  commit: BranchCommitInfo | null;
  /** Whether the pipeline's branch is protected. */
  protectedRef: boolean;
}

/** Gitlab::DataBuilder::Pipeline.build: object_kind `pipeline`, with the pipeline's jobs as `builds`. */
export function buildPipelinePayload(event: PipelineEvent) {
  const { baseUrl, project, pipeline } = event;
  const user = event.user ? userHookAttrs(event.user) : null;
  const stages = [...new Map(event.jobs.map((job) => [job.stage_index, job.stage] as const)).entries()]
    .sort(([a], [b]) => a - b)
    .map(([, stage]) => stage);
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: pipeline.id,
      iid: pipeline.iid,
      name: null,
      ref: pipeline.ref,
      tag: pipeline.tag === 1,
      sha: pipeline.sha,
      before_sha: pipeline.before_sha,
      source: pipeline.source,
      status: pipeline.status,
      detailed_status: statusLabel(pipeline.status),
      stages,
      created_at: hookTime(pipeline.created_at),
      finished_at: hookTime(pipeline.finished_at),
      duration: pipeline.duration,
      queued_duration: pipelineQueuedDuration(pipeline),
      protected_ref: event.protectedRef,
      variables: event.variables.map(({ key, value }) => ({ key, value })),
      url: `${projectUrl(baseUrl, project)}/-/pipelines/${pipeline.id}`,
    },
    merge_request: null,
    user,
    project: projectHookAttrs(baseUrl, project, false),
    commit: event.commit ? commitHookAttrs(baseUrl, project, event.commit) : null,
    builds: event.jobs.map((job) => ({
      id: job.id,
      stage: job.stage,
      name: job.name,
      status: job.status,
      created_at: hookTime(job.created_at),
      started_at: hookTime(job.started_at),
      finished_at: hookTime(job.finished_at),
      duration: secondsBetween(job.started_at, job.finished_at),
      queued_duration: secondsBetween(job.created_at, job.started_at),
      failure_reason: job.status === 'failed' ? 'script_failure' : null,
      when: job.outcome === 'manual' ? 'manual' : 'on_success',
      manual: job.outcome === 'manual',
      allow_failure: job.allow_failure === 1,
      user,
      runner: null,
      artifacts_file: { filename: null, size: null },
      environment: null,
    })),
  };
}
