// How a pipeline moves through its states, as a pure function of its stored state and the clock, so that the
// runner's steps are idempotent: running a step twice, or again after a restart, gives the same result.
//
// pending → running: the jobs of each stage run together, stage after stage, each taking its declared
// duration (scaled by the time factor). When a stage is over:
// - a failed job without allow_failure fails the pipeline: the jobs of later stages are skipped;
// - a manual job blocks it: the pipeline waits in `manual`, later stages stay `created`;
// - otherwise the next stage starts; after the last one the pipeline succeeds (or is skipped, when every
//   job was).

export type PipelineStatus =
  | 'created'
  | 'pending'
  | 'running'
  | 'success'
  | 'failed'
  | 'canceled'
  | 'skipped'
  | 'manual';
export type JobStatus = 'created' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'manual';

export const FINISHED_PIPELINE_STATUSES: readonly PipelineStatus[] = [
  'success',
  'failed',
  'canceled',
  'skipped',
];
export const ACTIVE_PIPELINE_STATUSES: readonly PipelineStatus[] = ['pending', 'running'];

export interface JobState {
  id: number;
  stageIndex: number;
  status: JobStatus;
  /** The declared outcome: `success`, `failed`, `skipped` or `manual`. */
  outcome: string;
  durationSeconds: number;
  allowFailure: boolean;
  coverage: number | null;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface PipelineState {
  status: PipelineStatus;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface Step {
  pipeline: PipelineState;
  /** Every job, with its new state. */
  jobs: JobState[];
  /** The ids of the jobs whose state changed. */
  changedJobIds: number[];
  /** Whether the pipeline's own state changed. */
  pipelineChanged: boolean;
  /** When to look again (milliseconds from `now`); null when nothing will happen on its own. */
  wakeInMs: number | null;
}

/** Real milliseconds a job of `seconds` takes under the time factor. */
export function scaledMs(seconds: number, timeScale: number): number {
  return seconds * 1000 * timeScale;
}

function dueAt(job: JobState, timeScale: number): number {
  return Date.parse(job.startedAt ?? '') + scaledMs(job.durationSeconds, timeScale);
}

/** Advances the pipeline as far as the clock allows. */
export function advancePipeline(
  pipeline: PipelineState,
  jobs: readonly JobState[],
  now: Date,
  timeScale: number,
): Step {
  const state: PipelineState = { ...pipeline };
  const next = jobs.map((job) => ({ ...job }));
  const changed = new Set<number>();
  const nowMs = now.getTime();
  const nowIso = now.toISOString();
  const result = (wakeInMs: number | null): Step => ({
    pipeline: state,
    jobs: next,
    changedJobIds: [...changed],
    pipelineChanged:
      state.status !== pipeline.status ||
      state.startedAt !== pipeline.startedAt ||
      state.finishedAt !== pipeline.finishedAt,
    wakeInMs,
  });
  if (!ACTIVE_PIPELINE_STATUSES.includes(state.status)) return result(null);

  if (state.status === 'pending') {
    state.status = 'running';
    state.startedAt ??= nowIso;
  }
  for (;;) {
    // Finish the running jobs whose time is up, at the moment they were due.
    for (const job of next) {
      if (job.status !== 'running') continue;
      const due = dueAt(job, timeScale);
      if (due > nowMs) continue;
      job.status = job.outcome === 'failed' ? 'failed' : 'success';
      job.finishedAt = new Date(Math.min(due, nowMs)).toISOString();
      changed.add(job.id);
    }
    const running = next.filter((job) => job.status === 'running');
    if (running.length > 0) {
      const soonest = Math.min(...running.map((job) => dueAt(job, timeScale)));
      return result(Math.max(0, soonest - nowMs));
    }
    if (next.some((job) => job.status === 'failed' && !job.allowFailure)) {
      for (const job of next) {
        if (job.status !== 'created') continue;
        job.status = 'skipped';
        changed.add(job.id);
      }
      state.status = 'failed';
      state.finishedAt = nowIso;
      return result(null);
    }
    if (next.some((job) => job.status === 'manual')) {
      state.status = 'manual';
      return result(null);
    }
    const waiting = next.filter((job) => job.status === 'created');
    if (waiting.length === 0) {
      // As in GitLab, a pipeline whose every job was skipped is itself skipped.
      state.status = next.every((job) => job.status === 'skipped') ? 'skipped' : 'success';
      state.finishedAt = nowIso;
      return result(null);
    }
    const stage = Math.min(...waiting.map((job) => job.stageIndex));
    for (const job of waiting) {
      if (job.stageIndex !== stage) continue;
      if (job.outcome === 'skipped' || job.outcome === 'manual') {
        job.status = job.outcome;
      } else {
        job.status = 'running';
        job.startedAt = nowIso;
        job.finishedAt = null;
      }
      changed.add(job.id);
    }
  }
}

/** Cancels an active pipeline: every job that has not finished is canceled. Null when it is not active. */
export function cancelPipeline(pipeline: PipelineState, jobs: readonly JobState[], now: Date): Step | null {
  if (!ACTIVE_PIPELINE_STATUSES.includes(pipeline.status)) return null;
  const nowIso = now.toISOString();
  const next = jobs.map((job) => ({ ...job }));
  const changed: number[] = [];
  for (const job of next) {
    if (job.status !== 'created' && job.status !== 'running' && job.status !== 'manual') continue;
    if (job.status === 'running') job.finishedAt = nowIso;
    job.status = 'canceled';
    changed.push(job.id);
  }
  return {
    pipeline: { ...pipeline, status: 'canceled', finishedAt: nowIso },
    jobs: next,
    changedJobIds: changed,
    pipelineChanged: true,
    wakeInMs: null,
  };
}

/**
 * Drops an active pipeline (GitLab's Ci::DropPipelineService, when its user is blocked): every job still alive
 * (created or running) fails, and so does the pipeline. Null when it is not active.
 */
export function dropPipeline(pipeline: PipelineState, jobs: readonly JobState[], now: Date): Step | null {
  if (!ACTIVE_PIPELINE_STATUSES.includes(pipeline.status)) return null;
  const nowIso = now.toISOString();
  const next = jobs.map((job) => ({ ...job }));
  const changed: number[] = [];
  for (const job of next) {
    if (job.status !== 'created' && job.status !== 'running') continue;
    if (job.status === 'running') job.finishedAt = nowIso;
    job.status = 'failed';
    changed.push(job.id);
  }
  return {
    pipeline: { ...pipeline, status: 'failed', finishedAt: nowIso },
    jobs: next,
    changedJobIds: changed,
    pipelineChanged: true,
    wakeInMs: null,
  };
}

/**
 * Retries a finished pipeline: its failed and canceled jobs, and the jobs skipped after them, run again and
 * the pipeline is pending. Null when the pipeline has not finished or has no job to retry.
 */
export function retryPipeline(pipeline: PipelineState, jobs: readonly JobState[]): Step | null {
  if (!FINISHED_PIPELINE_STATUSES.includes(pipeline.status)) return null;
  if (!jobs.some((job) => job.status === 'failed' || job.status === 'canceled')) return null;
  const next = jobs.map((job) => ({ ...job }));
  const changed: number[] = [];
  for (const job of next) {
    if (job.status !== 'failed' && job.status !== 'canceled' && job.status !== 'skipped') continue;
    job.status = 'created';
    job.startedAt = null;
    job.finishedAt = null;
    changed.push(job.id);
  }
  return {
    pipeline: { ...pipeline, status: 'pending', finishedAt: null },
    jobs: next,
    changedJobIds: changed,
    pipelineChanged: true,
    wakeInMs: 0,
  };
}

/** The running time in seconds: per stage, the longest job that ran; null when no job ran. */
export function pipelineDuration(jobs: readonly JobState[]): number | null {
  const longestPerStage = new Map<number, number>();
  for (const job of jobs) {
    if (job.status !== 'success' && job.status !== 'failed') continue;
    longestPerStage.set(
      job.stageIndex,
      Math.max(longestPerStage.get(job.stageIndex) ?? 0, job.durationSeconds),
    );
  }
  if (longestPerStage.size === 0) return null;
  return Math.round([...longestPerStage.values()].reduce((sum, seconds) => sum + seconds, 0));
}

/** The average coverage of the jobs that ran and report one, as GitLab renders it (`"85.5"`); else null. */
export function pipelineCoverage(jobs: readonly JobState[]): string | null {
  const values = jobs
    .filter((job) => (job.status === 'success' || job.status === 'failed') && job.coverage !== null)
    .map((job) => job.coverage as number);
  if (values.length === 0) return null;
  const average = Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;
  return Number.isInteger(average) ? average.toFixed(1) : String(average);
}
