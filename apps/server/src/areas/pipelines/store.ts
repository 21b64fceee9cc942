// The pipelines area's queries: pipelines with their triggering user, their variables and jobs, the state
// a runner step reads and writes, and the step already waiting in the job queue.
import type { Insertable, Transaction } from 'kysely';
import type { QueryParams } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readNamedPageOf, readPageOf } from '../../core/store/paging.js';
import type {
  Database,
  PipelineJobsTable,
  PipelinesTable,
  PipelineVariablesTable,
} from '../../core/store/tables.js';
import {
  ACTIVE_PIPELINE_STATUSES,
  FINISHED_PIPELINE_STATUSES,
  type JobState,
  type JobStatus,
  type PipelineState,
  type PipelineStatus,
  pipelineCoverage,
  pipelineDuration,
  type Step,
} from './progress.js';

const pipelineColumns = [
  'p.id',
  'p.project_id',
  'p.iid',
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

export type PipelineRecord = {
  id: number;
  project_id: number;
  iid: number;
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
  /** The triggering user, null once a hard deletion of that user nullified it (then so are the others). */
  user_id: number | null;
  username: string | null;
  name: string | null;
  state: string | null;
  avatar_url: string | null;
};

/** The project's pipeline with its triggering user, or undefined. */
export function findPipelineRecord(
  db: Db,
  projectId: number,
  pipelineId: number,
): Promise<PipelineRecord | undefined> {
  return db
    .selectFrom('pipelines as p')
    .leftJoin('users as u', 'u.id', 'p.user_id')
    .select(pipelineColumns)
    .where('p.id', '=', pipelineId)
    .where('p.project_id', '=', projectId)
    .executeTakeFirst();
}

/**
 * The newest pipeline of a branch (not a tag) for a commit, with its triggering user: a merge request's head
 * pipeline (GitLab's MergeRequest#head_pipeline), or undefined.
 */
export function findHeadPipelineRecord(
  db: Db,
  projectId: number,
  branch: string,
  sha: string,
): Promise<PipelineRecord | undefined> {
  return db
    .selectFrom('pipelines as p')
    .leftJoin('users as u', 'u.id', 'p.user_id')
    .select(pipelineColumns)
    .where('p.project_id', '=', projectId)
    .where('p.ref', '=', branch)
    .where('p.sha', '=', sha)
    .where('p.tag', '=', 0)
    .orderBy('p.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Where a pipeline ran and how it stands: project, ref (branch or tag), commit and status; or undefined. */
export function findPipelineStatus(
  db: Db,
  pipelineId: number,
): Promise<
  { id: number; project_id: number; ref: string; tag: number; sha: string; status: string } | undefined
> {
  return db
    .selectFrom('pipelines')
    .select(['id', 'project_id', 'ref', 'tag', 'sha', 'status'])
    .where('id', '=', pipelineId)
    .executeTakeFirst();
}

/** Adds a pipeline with its variables and jobs in one transaction; returns its ID. */
export function insertPipeline(
  db: Db,
  pipeline: Omit<Insertable<PipelinesTable>, 'iid'>,
  variables: readonly Omit<Insertable<PipelineVariablesTable>, 'pipeline_id'>[],
  jobs: readonly Omit<Insertable<PipelineJobsTable>, 'pipeline_id'>[],
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // The next number of the project's pipelines (the transaction holds the write lock).
    const highest = await trx
      .selectFrom('pipelines')
      .where('project_id', '=', pipeline.project_id)
      .select((eb) => eb.fn.max('iid').as('iid'))
      .executeTakeFirst();
    const { id } = await trx
      .insertInto('pipelines')
      .values({ ...pipeline, iid: Number(highest?.iid ?? 0) + 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const variable of variables)
      await trx
        .insertInto('pipeline_variables')
        .values({ ...variable, pipeline_id: id })
        .execute();
    for (const job of jobs)
      await trx
        .insertInto('pipeline_jobs')
        .values({ ...job, pipeline_id: id })
        .execute();
    return id;
  });
}

type PipelineListRow = Awaited<ReturnType<typeof readPageOfPipelines>>['items'][number];

/** One page of the project's pipelines with the list's filters and order. */
export function pageOfPipelines(
  db: Db,
  projectId: number,
  query: QueryParams<'listPipelines'>,
  window: PageWindow,
): Promise<Page<PipelineListRow>> {
  // Every filter the statement reads is in the query (its keys in the order the route wrote them).
  const key = JSON.stringify(['pipelines', projectId, window.offset, window.limit, query]);
  return readNamedPageOf(db, key, () => readPageOfPipelines(db, projectId, query, window));
}

function readPageOfPipelines(
  db: Db,
  projectId: number,
  query: QueryParams<'listPipelines'>,
  window: PageWindow,
) {
  // One table, so that counting reads the project's index entries only (the user filters are subqueries).
  let filtered = db.selectFrom('pipelines as p').where('p.project_id', '=', projectId);
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
      const latest = db
        .selectFrom('pipelines')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('project_id', '=', projectId)
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
    const named = db.selectFrom('users').select('id').where('name', '=', query.name);
    filtered = filtered.where('p.user_id', 'in', named);
  }
  if (query.username !== undefined) {
    const named = db.selectFrom('users').select('id').where('username', '=', query.username);
    filtered = filtered.where('p.user_id', 'in', named);
  }
  // Timestamps are stored as ISO 8601 UTC with milliseconds, so normalised bounds compare as text.
  if (query.updated_after)
    filtered = filtered.where('p.updated_at', '>', new Date(query.updated_after).toISOString());
  if (query.updated_before)
    filtered = filtered.where('p.updated_at', '<', new Date(query.updated_before).toISOString());

  const direction = query.sort ?? 'desc';
  const orderColumn = `p.${query.order_by ?? 'id'}` as const;
  return readPageOf(
    db,
    filtered,
    (rows) =>
      rows
        .select([
          'p.id',
          'p.project_id',
          'p.iid',
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
}

/** One page of the pipeline's variables, in the order they were given. */
export function pageOfVariables(db: Db, pipelineId: number, window: PageWindow) {
  return readPageOf(
    db,
    db.selectFrom('pipeline_variables').where('pipeline_id', '=', pipelineId),
    (rows) => rows.select(['key', 'value', 'variable_type']).orderBy('id'),
    window,
  );
}

/** The test reports (JSON) of the pipeline's jobs that ran, by stage. */
export async function finishedJobTestReports(db: Db, pipelineId: number): Promise<string[]> {
  const jobs = await db
    .selectFrom('pipeline_jobs')
    .select('test_report')
    .where('pipeline_id', '=', pipelineId)
    .where('status', 'in', ['success', 'failed'])
    .where('test_report', 'is not', null)
    .orderBy('stage_index')
    .orderBy('id')
    .execute();
  return jobs.map((job) => job.test_report ?? '[]');
}

/**
 * Deletes a pipeline; its jobs and variables go with it (foreign keys cascade). In a write transaction, as the
 * runner's writes to the jobs are: on PostgreSQL a bare delete took no write lock, and its cascade into
 * pipeline_jobs deadlocked with a runner step (40P01, a 500).
 */
export async function deletePipelineRow(db: Db, pipelineId: number): Promise<void> {
  await db.transaction().execute((trx) => trx.deleteFrom('pipelines').where('id', '=', pipelineId).execute());
}

/** The earliest queued job of this kind and payload (a runner step already waiting), or undefined. */
export function firstQueuedJob(db: Db, kind: string, payload: string) {
  return db
    .selectFrom('jobs')
    .select(['id', 'run_at'])
    .where('kind', '=', kind)
    .where('state', '=', 'queued')
    .where('payload', '=', payload)
    .orderBy('run_at')
    .executeTakeFirst();
}

type Executor = Db | Transaction<Database>;

export async function loadPipelineState(
  db: Executor,
  pipelineId: number,
): Promise<{ pipeline: PipelineState; jobs: JobState[] } | undefined> {
  const row = await db
    .selectFrom('pipelines')
    .select(['status', 'started_at', 'finished_at'])
    .where('id', '=', pipelineId)
    .executeTakeFirst();
  if (!row) return undefined;
  const jobs = await db
    .selectFrom('pipeline_jobs')
    .selectAll()
    .where('pipeline_id', '=', pipelineId)
    .orderBy('stage_index')
    .orderBy('id')
    .execute();
  return {
    pipeline: {
      status: row.status as PipelineStatus,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
    },
    jobs: jobs.map((job) => ({
      id: job.id,
      stageIndex: job.stage_index,
      status: job.status as JobStatus,
      outcome: job.outcome,
      durationSeconds: job.duration_seconds,
      allowFailure: job.allow_failure === 1,
      coverage: job.coverage,
      startedAt: job.started_at,
      finishedAt: job.finished_at,
    })),
  };
}

/** Writes the jobs a step changed and the pipeline; duration and coverage are set once the pipeline stops. */
export async function saveStep(db: Executor, pipelineId: number, step: Step, now: Date): Promise<void> {
  const nowIso = now.toISOString();
  for (const job of step.jobs) {
    if (!step.changedJobIds.includes(job.id)) continue;
    await db
      .updateTable('pipeline_jobs')
      .set({ status: job.status, started_at: job.startedAt, finished_at: job.finishedAt, updated_at: nowIso })
      .where('id', '=', job.id)
      .execute();
  }
  if (!step.pipelineChanged && step.changedJobIds.length === 0) return;
  const stopped =
    FINISHED_PIPELINE_STATUSES.includes(step.pipeline.status) || step.pipeline.status === 'manual';
  await db
    .updateTable('pipelines')
    .set({
      status: step.pipeline.status,
      started_at: step.pipeline.startedAt,
      finished_at: step.pipeline.finishedAt,
      updated_at: nowIso,
      ...(stopped ? { duration: pipelineDuration(step.jobs), coverage: pipelineCoverage(step.jobs) } : {}),
    })
    .where('id', '=', pipelineId)
    .execute();
}

/**
 * What a user's deletion does to the pipelines the user triggered (in the deletion's transaction): they move
 * to the ghost user, or with `hardDelete` keep no user (GitLab: `has_many :pipelines, dependent: :nullify`,
 * which runs when MigrateRecordsToGhostUserService skips the migration on a hard deletion).
 */
export async function handOverPipelines(
  trx: Transaction<Database>,
  userId: number,
  ghostId: number,
  hardDelete: boolean,
): Promise<void> {
  await trx
    .updateTable('pipelines')
    .set({ user_id: hardDelete ? null : ghostId })
    .where('user_id', '=', userId)
    .execute();
}

/** The active (pending or running) pipelines a user triggered. */
export async function activePipelineIdsOfUser(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('pipelines')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', [...ACTIVE_PIPELINE_STATUSES])
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}
