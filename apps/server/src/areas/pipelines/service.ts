// Pipelines (document 1, section 4.4): create from a branch or tag with the repository's CI configuration,
// read, list with every filter, cancel, retry and delete. The runner (pipelineRunner) moves them on.

import {
  AccessLevel,
  groupChain,
  type ProjectAccess,
  projectFullPath,
  resolveProject,
  resolveProjectForRepositoryRead,
  resolveProjectForSignedIn,
} from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { ApiError, forbidden, notFound } from '../../core/http/errors.js';
import type { QueryParams, RequestBody, Schemas } from '../../core/http/types.js';
import { nowIso } from '../../core/store/database.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { type FeatureActor, pipelineTestReport, userActor } from '../features/index.js';
import { CI_CONFIG_PATH, type CiTestSuite, parseCiConfig } from './config.js';
import { pipelineStatusChanged } from './events.js';
import { cancelPipeline as cancelStep, retryPipeline as retryStep } from './progress.js';
import { loadPipelineState, saveStep, scheduleAdvance } from './runner.js';
import {
  deletePipelineRow,
  findPipelineRecord,
  finishedJobTestReports,
  insertPipeline,
  type PipelineRecord,
  pageOfPipelines,
  pageOfVariables,
} from './store.js';
import { buildTestReport, type TestReport } from './testReport.js';

export type Pipeline = Schemas['Pipeline'];
export type PipelineListItem = Schemas['PipelineListItem'];
export type PipelineVariable = Schemas['PipelineVariable'];
export type CreatePipelineBody = RequestBody<'createPipeline'>;
export type ListPipelinesQuery = QueryParams<'listPipelines'>;

const ZERO_SHA = '0'.repeat(40);
const VARIABLE_KEY = /^[A-Za-z0-9_]{1,255}$/;

/** GitLab's field error shape, `{"message": {"base": [...]}}`, used for the create failures. */
function baseError(message: string): ApiError {
  return new ApiError(400, { message: { base: [message] } });
}

function pipelineWebUrl(origin: string, access: ProjectAccess, id: number): string {
  return `${origin}/${projectFullPath(access)}/-/pipelines/${id}`;
}

/** GitLab's words and icon for a pipeline's status (`Gitlab::Ci::Status::*`, the pipeline's factory). */
const STATUS_WORDS: Record<Pipeline['status'], { text: string; label: string; group: string }> = {
  created: { text: 'created', label: 'created', group: 'created' },
  pending: { text: 'pending', label: 'pending', group: 'pending' },
  running: { text: 'running', label: 'running', group: 'running' },
  success: { text: 'passed', label: 'passed', group: 'success' },
  failed: { text: 'failed', label: 'failed', group: 'failed' },
  canceled: { text: 'canceled', label: 'canceled', group: 'canceled' },
  skipped: { text: 'skipped', label: 'skipped', group: 'skipped' },
  manual: { text: 'blocked', label: 'waiting for manual action', group: 'manual' },
};

/** GitLab's `detailed_status` of a pipeline (its DetailedStatusEntity). */
function detailedStatus(status: Pipeline['status'], path: string): Pipeline['detailed_status'] {
  const words = STATUS_WORDS[status];
  const icon = `status_${status}`;
  return {
    icon,
    text: words.text,
    label: words.label,
    group: words.group,
    tooltip: words.label,
    has_details: true,
    details_path: path,
    illustration: null,
    favicon: `/assets/ci_favicons/favicon_${icon}.png`,
  };
}

/** Seconds from creation to the first job's start, as GitLab counts it (null before, and when zero). */
function queuedDuration(createdAt: string, startedAt: string | null): number | null {
  if (startedAt === null) return null;
  const seconds = Math.trunc((Date.parse(startedAt) - Date.parse(createdAt)) / 1000);
  return seconds === 0 || Number.isNaN(seconds) ? null : seconds;
}

/** Who triggered the pipeline; null once a hard deletion of that user nullified it. */
function triggeringUser(record: PipelineRecord, origin: string): Pipeline['user'] {
  const { user_id: id, username, name, state } = record;
  if (id === null || username === null || name === null || state === null) return null;
  return { id, username, name, state, avatar_url: record.avatar_url, web_url: `${origin}/${username}` };
}

/** A pipeline as GitLab's Ci::Pipeline entity shows it (its single read, and a merge request's head pipeline). */
export function presentPipeline(record: PipelineRecord, access: ProjectAccess, origin: string): Pipeline {
  const status = record.status as Pipeline['status'];
  return {
    id: record.id,
    iid: record.iid,
    project_id: record.project_id,
    source: record.source,
    sha: record.sha,
    ref: record.ref,
    status,
    before_sha: record.before_sha,
    tag: record.tag === 1,
    yaml_errors: record.yaml_errors,
    user: triggeringUser(record, origin),
    created_at: record.created_at,
    updated_at: record.updated_at,
    started_at: record.started_at,
    finished_at: record.finished_at,
    committed_at: record.committed_at,
    duration: record.duration,
    queued_duration: queuedDuration(record.created_at, record.started_at),
    coverage: record.coverage,
    detailed_status: detailedStatus(status, `/${projectFullPath(access)}/-/pipelines/${record.id}`),
    web_url: pipelineWebUrl(origin, access, record.id),
  };
}

async function loadPipeline(
  context: ServerContext,
  access: ProjectAccess,
  pipelineId: number,
): Promise<PipelineRecord> {
  const record = await findPipelineRecord(context.db, access.project.id, pipelineId);
  if (!record) throw notFound('Pipeline');
  return record;
}

/** Pipeline reads: anyone who sees a public or internal project; reporters and above on a private one. */
async function resolveForRead(
  context: ServerContext,
  caller: Caller,
  projectId: string,
): Promise<ProjectAccess> {
  requireScope(caller, 'read_api');
  return resolveProjectForRepositoryRead(context.db, caller, projectId);
}

/** A ref name as git accepts it for a branch or tag: no revision syntax (`main~1`, `a..b`, `@{…}`). */
function isPlainRefName(ref: string): boolean {
  return !/[~^:?*[\\\s]|\.\.|@\{|^-|^\/|\/$|\.lock$/.test(ref);
}

/** The branch or tag `ref` names (a branch wins over a tag of the same name), or null. */
async function resolveBranchOrTag(
  context: ServerContext,
  access: ProjectAccess,
  ref: string,
): Promise<{ sha: string; tag: boolean } | null> {
  if (!isPlainRefName(ref)) return null;
  const repo = repositoryOf(context, access.project);
  const branch = await repo.resolveRef(`refs/heads/${ref}`);
  if (branch) return { sha: branch, tag: false };
  const tag = await repo.resolveRef(`refs/tags/${ref}`);
  return tag ? { sha: tag, tag: true } : null;
}

function checkVariables(
  variables: CreatePipelineBody['variables'],
): NonNullable<CreatePipelineBody['variables']> {
  const list = variables ?? [];
  const seen = new Set<string>();
  for (const variable of list) {
    if (!VARIABLE_KEY.test(variable.key)) {
      throw baseError(`Variable key ${variable.key} can contain only letters, digits and '_'`);
    }
    if (seen.has(variable.key)) throw baseError(`Duplicate variable name: ${variable.key}`);
    seen.add(variable.key);
  }
  return list;
}

export async function createPipeline(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  body: CreatePipelineBody,
  origin: string,
): Promise<Pipeline> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const access = await resolveProject(context.db, caller, projectId, AccessLevel.DEVELOPER);
  const variables = checkVariables(body.variables);
  const target = await resolveBranchOrTag(context, access, body.ref);
  if (!target) throw baseError('Reference not found');
  const file = await repositoryOf(context, access.project).readFile(target.sha, CI_CONFIG_PATH);
  if (!file) throw baseError('Missing CI config file');
  const parsed = parseCiConfig(file.content.toString('utf8'));

  const now = nowIso();
  const pipelineId = await insertPipeline(
    context.db,
    {
      project_id: access.project.id,
      sha: target.sha,
      // Pipelines created through the API have no push before them, as in GitLab.
      before_sha: ZERO_SHA,
      ref: body.ref,
      tag: target.tag ? 1 : 0,
      // An invalid configuration gives a pipeline that failed at once, with its errors.
      status: parsed.ok ? 'pending' : 'failed',
      source: 'api',
      yaml_errors: parsed.ok ? null : parsed.errors.join(', '),
      user_id: user.id,
      created_at: now,
      updated_at: now,
      started_at: null,
      finished_at: parsed.ok ? null : now,
      committed_at: null,
      duration: null,
      coverage: null,
    },
    variables.map((variable) => ({
      key: variable.key,
      value: variable.value,
      variable_type: variable.variable_type ?? 'env_var',
    })),
    (parsed.ok ? parsed.config.jobs : []).map((job) => ({
      name: job.name,
      stage: job.stage,
      stage_index: job.stageIndex,
      status: 'created',
      outcome: job.outcome,
      duration_seconds: job.durationSeconds,
      allow_failure: job.allowFailure ? 1 : 0,
      coverage: job.coverage,
      script: JSON.stringify(job.script),
      test_report: job.testReport ? JSON.stringify(job.testReport) : null,
      started_at: null,
      finished_at: null,
      created_at: now,
      updated_at: now,
    })),
  );
  // Read before the runner's first step can move it: the answer shows the pipeline as created.
  const created = presentPipeline(await loadPipeline(context, access, pipelineId), access, origin);
  await pipelineStatusChanged(context, pipelineId);
  if (parsed.ok) await scheduleAdvance(context, pipelineId, 0);
  return created;
}

export async function listPipelines(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  query: ListPipelinesQuery,
  window: PageWindow,
  origin: string,
): Promise<Page<PipelineListItem>> {
  const access = await resolveForRead(context, caller, projectId);
  const page = await pageOfPipelines(context.db, access.project.id, query, window);
  return {
    total: page.total,
    items: page.items.map((row) => ({
      id: row.id,
      iid: row.iid,
      project_id: row.project_id,
      source: row.source,
      status: row.status as PipelineListItem['status'],
      ref: row.ref,
      sha: row.sha,
      web_url: pipelineWebUrl(origin, access, row.id),
      created_at: row.created_at,
      updated_at: row.updated_at,
    })),
  };
}

export async function getPipeline(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  pipelineId: number,
  origin: string,
): Promise<Pipeline> {
  const access = await resolveForRead(context, caller, projectId);
  return presentPipeline(await loadPipeline(context, access, pipelineId), access, origin);
}

/** The variables may be read by a maintainer or by the user who triggered the pipeline (GitLab's rule). */
export async function listPipelineVariables(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  pipelineId: number,
  window: PageWindow,
): Promise<Page<PipelineVariable>> {
  // Nobody anonymous can be the maintainer or the triggering user: a token is needed (401 first, even for
  // a project the caller cannot see).
  const user = requireUser(caller);
  const access = await resolveForRead(context, caller, projectId);
  const pipeline = await loadPipeline(context, access, pipelineId);
  if (access.accessLevel < AccessLevel.MAINTAINER && user.id !== pipeline.user_id) throw forbidden();
  const page = await pageOfVariables(context.db, pipelineId, window);
  return {
    total: page.total,
    items: page.items.map((row) => ({
      key: row.key,
      value: row.value,
      variable_type: row.variable_type as PipelineVariable['variable_type'],
    })),
  };
}

/** Behind the `pipeline_test_report` feature flag, checked for the project, its groups and the caller. */
export async function getPipelineTestReport(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  pipelineId: number,
): Promise<TestReport> {
  const access = await resolveForRead(context, caller, projectId);
  await loadPipeline(context, access, pipelineId);
  const actors: FeatureActor[] = [
    { type: 'Project', id: access.project.id },
    ...(await groupChain(context.db, access.project.namespace_id)).map(
      (group): FeatureActor => ({ type: 'Group', id: group.id }),
    ),
    ...(caller.user ? [userActor(caller.user)] : []),
  ];
  // Behind a feature flag (areas/features/switches.ts), off unless an administrator turns it on.
  if (!(await pipelineTestReport(context, actors))) throw notFound();
  // Only jobs that ran have results; a job still waiting or running adds nothing yet.
  const reports = await finishedJobTestReports(context.db, pipelineId);
  return buildTestReport(reports.map((report) => JSON.parse(report) as CiTestSuite[]));
}

/** Cancels a running or pending pipeline; any other pipeline is returned unchanged (as GitLab does). */
export async function cancelPipeline(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  pipelineId: number,
  origin: string,
): Promise<Pipeline> {
  const access = await resolveProjectForSignedIn(context.db, caller, projectId, 'api', AccessLevel.DEVELOPER);
  await loadPipeline(context, access, pipelineId);
  const canceled = await context.db.transaction().execute(async (trx) => {
    const state = await loadPipelineState(trx, pipelineId);
    const now = new Date();
    const step = state && cancelStep(state.pipeline, state.jobs, now);
    if (step) await saveStep(trx, pipelineId, step, now);
    return step !== null && step !== undefined;
  });
  if (canceled) await pipelineStatusChanged(context, pipelineId);
  return presentPipeline(await loadPipeline(context, access, pipelineId), access, origin);
}

/** Retries the failed and canceled jobs of a finished pipeline; otherwise it is returned unchanged. */
export async function retryPipeline(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  pipelineId: number,
  origin: string,
): Promise<Pipeline> {
  const access = await resolveProjectForSignedIn(context.db, caller, projectId, 'api', AccessLevel.DEVELOPER);
  await loadPipeline(context, access, pipelineId);
  const retried = await context.db.transaction().execute(async (trx) => {
    const state = await loadPipelineState(trx, pipelineId);
    const step = state && retryStep(state.pipeline, state.jobs);
    if (step) await saveStep(trx, pipelineId, step, new Date());
    return step !== null && step !== undefined;
  });
  const pipeline = presentPipeline(await loadPipeline(context, access, pipelineId), access, origin);
  if (retried) {
    await pipelineStatusChanged(context, pipelineId);
    await scheduleAdvance(context, pipelineId, 0);
  }
  return pipeline;
}

/** Deletes a pipeline in any status, with its jobs and variables (owners only, as in GitLab). */
export async function deletePipeline(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  pipelineId: number,
): Promise<void> {
  const access = await resolveProjectForSignedIn(context.db, caller, projectId, 'api', AccessLevel.OWNER);
  await loadPipeline(context, access, pipelineId);
  // Jobs and variables go with it (foreign keys cascade); a queued runner step then finds nothing to do.
  await deletePipelineRow(context.db, pipelineId);
}
