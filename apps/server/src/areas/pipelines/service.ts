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
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import { type FeatureActor, pipelineTestReport, userActor } from '../features/index.js';
import { CI_CONFIG_PATH, type CiTestSuite, parseCiConfig } from './config.js';
import { pipelineStatusChanged } from './events.js';
import {
  cancelPipeline as cancelStep,
  FINISHED_PIPELINE_STATUSES,
  retryPipeline as retryStep,
} from './progress.js';
import { loadPipelineState, saveStep, scheduleAdvance } from './runner.js';
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

const pipelineColumns = [
  'p.id',
  'p.project_id',
  'p.source',
  'p.sha',
  'p.before_sha',
  'p.ref',
  'p.tag',
  'p.status',
  'p.yaml_errors',
  'p.created_at',
  'p.updated_at',
  'p.started_at',
  'p.finished_at',
  'p.committed_at',
  'p.duration',
  'p.coverage',
  'p.user_id',
  'u.username',
  'u.name',
  'u.state',
  'u.avatar_url',
] as const;

type PipelineRecord = {
  id: number;
  project_id: number;
  source: string;
  sha: string;
  before_sha: string;
  ref: string;
  tag: number;
  status: string;
  yaml_errors: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  committed_at: string | null;
  duration: number | null;
  coverage: string | null;
  user_id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
};

function pipelineWebUrl(origin: string, access: ProjectAccess, id: number): string {
  return `${origin}/${projectFullPath(access)}/-/pipelines/${id}`;
}

function presentPipeline(record: PipelineRecord, access: ProjectAccess, origin: string): Pipeline {
  return {
    id: record.id,
    project_id: record.project_id,
    source: record.source,
    sha: record.sha,
    ref: record.ref,
    status: record.status as Pipeline['status'],
    before_sha: record.before_sha,
    tag: record.tag === 1,
    yaml_errors: record.yaml_errors,
    user: {
      id: record.user_id,
      username: record.username,
      name: record.name,
      state: record.state,
      avatar_url: record.avatar_url,
      web_url: `${origin}/${record.username}`,
    },
    created_at: record.created_at,
    updated_at: record.updated_at,
    started_at: record.started_at,
    finished_at: record.finished_at,
    committed_at: record.committed_at,
    duration: record.duration,
    coverage: record.coverage,
    web_url: pipelineWebUrl(origin, access, record.id),
  };
}

async function loadPipeline(
  context: ServerContext,
  access: ProjectAccess,
  pipelineId: number,
): Promise<PipelineRecord> {
  const record = await context.db
    .selectFrom('pipelines as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(pipelineColumns)
    .where('p.id', '=', pipelineId)
    .where('p.project_id', '=', access.project.id)
    .executeTakeFirst();
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
  const pipelineId = await context.db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('pipelines')
      .values({
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
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const variable of variables) {
      await trx
        .insertInto('pipeline_variables')
        .values({
          pipeline_id: id,
          key: variable.key,
          value: variable.value,
          variable_type: variable.variable_type ?? 'env_var',
        })
        .execute();
    }
    for (const job of parsed.ok ? parsed.config.jobs : []) {
      await trx
        .insertInto('pipeline_jobs')
        .values({
          pipeline_id: id,
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
        })
        .execute();
    }
    return id;
  });
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
  // One table, so that counting reads the project's index entries only (the user filters are subqueries).
  let filtered = context.db.selectFrom('pipelines as p').where('p.project_id', '=', access.project.id);
  switch (query.scope) {
    case 'running':
    case 'pending':
      filtered = filtered.where('p.status', '=', query.scope);
      break;
    case 'finished':
      filtered = filtered.where('p.status', 'in', [...FINISHED_PIPELINE_STATUSES]);
      break;
    case 'branches':
    case 'tags': {
      // The latest pipeline of each branch (or tag).
      const tag = query.scope === 'tags' ? 1 : 0;
      const latest = context.db
        .selectFrom('pipelines')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('project_id', '=', access.project.id)
        .where('tag', '=', tag)
        .groupBy('ref');
      filtered = filtered.where('p.tag', '=', tag).where('p.id', 'in', latest);
      break;
    }
  }
  if (query.status) filtered = filtered.where('p.status', '=', query.status);
  if (query.ref !== undefined) filtered = filtered.where('p.ref', '=', query.ref);
  if (query.sha !== undefined) filtered = filtered.where('p.sha', '=', query.sha);
  if (query.yaml_errors !== undefined) {
    filtered = filtered.where('p.yaml_errors', query.yaml_errors ? 'is not' : 'is', null);
  }
  if (query.name !== undefined) {
    const named = context.db.selectFrom('users').select('id').where('name', '=', query.name);
    filtered = filtered.where('p.user_id', 'in', named);
  }
  if (query.username !== undefined) {
    const named = context.db.selectFrom('users').select('id').where('username', '=', query.username);
    filtered = filtered.where('p.user_id', 'in', named);
  }
  // Timestamps are stored as ISO 8601 UTC with milliseconds, so normalised bounds compare as text.
  if (query.updated_after)
    filtered = filtered.where('p.updated_at', '>', new Date(query.updated_after).toISOString());
  if (query.updated_before)
    filtered = filtered.where('p.updated_at', '<', new Date(query.updated_before).toISOString());

  const direction = query.sort ?? 'desc';
  const orderColumn = `p.${query.order_by ?? 'id'}` as const;
  const page = await readPageOf(
    context.db,
    filtered,
    (rows) =>
      rows
        .select([
          'p.id',
          'p.project_id',
          'p.source',
          'p.status',
          'p.ref',
          'p.sha',
          'p.created_at',
          'p.updated_at',
        ])
        .orderBy(orderColumn, direction)
        .orderBy('p.id', direction),
    window,
  );
  return {
    total: page.total,
    items: page.items.map((row) => ({
      id: row.id,
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
  const page = await readPageOf(
    context.db,
    context.db.selectFrom('pipeline_variables').where('pipeline_id', '=', pipelineId),
    (rows) => rows.select(['key', 'value', 'variable_type']).orderBy('id'),
    window,
  );
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
  const jobs = await context.db
    .selectFrom('pipeline_jobs')
    .select('test_report')
    .where('pipeline_id', '=', pipelineId)
    .where('status', 'in', ['success', 'failed'])
    .where('test_report', 'is not', null)
    .orderBy('stage_index')
    .orderBy('id')
    .execute();
  return buildTestReport(jobs.map((job) => JSON.parse(job.test_report ?? '[]') as CiTestSuite[]));
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
  await context.db.deleteFrom('pipelines').where('id', '=', pipelineId).execute();
}
