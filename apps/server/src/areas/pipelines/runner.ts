// The in-process runner's storage side: loads a pipeline's state, applies a step of pipelineProgress and
// saves it in one transaction (so a cancel request and a runner step never interleave), and schedules the
// next step on the job queue. A step is idempotent: after a restart the queue simply runs it again.
import type { Transaction } from 'kysely';
import type { ServerContext } from '../../core/context.js';
import type { Db } from '../../core/store/database.js';
import type { Database } from '../../core/store/tables.js';
import {
  advancePipeline,
  FINISHED_PIPELINE_STATUSES,
  type JobState,
  type JobStatus,
  type PipelineState,
  type PipelineStatus,
  pipelineCoverage,
  pipelineDuration,
  type Step,
} from './progress.js';

export const PIPELINE_ADVANCE_JOB = 'pipeline.advance';

export interface PipelineAdvancePayload {
  pipelineId: number;
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
 * Runs one step of a pipeline at `now`. Returns when to look again (ms; null when the pipeline stopped,
 * waits for a person, or no longer exists) and whether the step changed the pipeline's status.
 */
export async function advanceStoredPipeline(
  db: Db,
  pipelineId: number,
  now: Date,
  timeScale: number,
): Promise<{ wakeInMs: number | null; statusChanged: boolean }> {
  return db.transaction().execute(async (trx) => {
    const state = await loadPipelineState(trx, pipelineId);
    if (!state) return { wakeInMs: null, statusChanged: false };
    const step = advancePipeline(state.pipeline, state.jobs, now, timeScale);
    await saveStep(trx, pipelineId, step, now);
    return { wakeInMs: step.wakeInMs, statusChanged: step.pipeline.status !== state.pipeline.status };
  });
}

/**
 * Queues the next step of a pipeline, unless a step is already queued no later than that: a step that runs
 * again after a restart must not start a second chain of steps.
 */
export async function scheduleAdvance(
  context: ServerContext,
  pipelineId: number,
  delayMs: number,
): Promise<void> {
  const payload = JSON.stringify({ pipelineId } satisfies PipelineAdvancePayload);
  const runAt = new Date(Date.now() + delayMs).toISOString();
  const queued = await context.db
    .selectFrom('jobs')
    .select(['id', 'run_at'])
    .where('kind', '=', PIPELINE_ADVANCE_JOB)
    .where('state', '=', 'queued')
    .where('payload', '=', payload)
    .orderBy('run_at')
    .executeTakeFirst();
  if (queued && queued.run_at <= runAt) return;
  await context.jobs.enqueue(PIPELINE_ADVANCE_JOB, { pipelineId } satisfies PipelineAdvancePayload, {
    delayMs,
  });
}
