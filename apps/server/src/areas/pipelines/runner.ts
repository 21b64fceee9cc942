// The in-process runner's storage side: loads a pipeline's state, applies a step of pipelineProgress and
// saves it in one transaction (so a cancel request and a runner step never interleave), and schedules the
// next step on the job queue. A step is idempotent: after a restart the queue simply runs it again.
import type { ServerContext } from '../../core/context.js';
import type { Db } from '../../core/store/database.js';
import { advancePipeline } from './progress.js';
import { firstQueuedJob, loadPipelineState, saveStep } from './store.js';

export { loadPipelineState, saveStep } from './store.js';

export const PIPELINE_ADVANCE_JOB = 'pipeline.advance';

export interface PipelineAdvancePayload {
  pipelineId: number;
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
  const queued = await firstQueuedJob(context.db, PIPELINE_ADVANCE_JOB, payload);
  if (queued && queued.run_at <= runAt) return;
  await context.jobs.enqueue(PIPELINE_ADVANCE_JOB, { pipelineId } satisfies PipelineAdvancePayload, {
    delayMs,
  });
}
