// The pipeline runner: one queue job per step; each step advances the pipeline as far as the clock allows
// and queues the next step for when the next running job is due.
import type { ServerContext } from '../../core/context.js';
import { pipelineStatusChanged } from './events.js';
import {
  advanceStoredPipeline,
  PIPELINE_ADVANCE_JOB,
  type PipelineAdvancePayload,
  scheduleAdvance,
} from './runner.js';

export interface PipelineRunnerOptions {
  /** Real seconds per declared job second: 1 in production, small in tests so pipelines finish fast. */
  timeScale: number;
}

export function registerPipelineJobs(context: ServerContext, options: PipelineRunnerOptions): void {
  if (!(options.timeScale > 0))
    throw new Error(`pipelineTimeScale must be a positive number, not ${options.timeScale}`);
  context.jobs.register(PIPELINE_ADVANCE_JOB, async (payload) => {
    const { pipelineId } = payload as PipelineAdvancePayload;
    const { wakeInMs, statusChanged } = await advanceStoredPipeline(
      context.db,
      pipelineId,
      new Date(),
      options.timeScale,
    );
    if (statusChanged) await pipelineStatusChanged(context, pipelineId);
    if (wakeInMs !== null) await scheduleAdvance(context, pipelineId, wakeInMs);
  });
}
