import { describe, expect, it } from 'vitest';
import {
  advancePipeline,
  cancelPipeline,
  dropPipeline,
  type JobState,
  type PipelineState,
  pipelineCoverage,
  pipelineDuration,
  retryPipeline,
  type Step,
} from './progress.js';

const T0 = Date.parse('2026-01-15T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const iso = (seconds: number) => at(seconds).toISOString();
const SCALE = 1;

function job(id: number, stageIndex: number, extra: Partial<JobState> = {}): JobState {
  return {
    id,
    stageIndex,
    status: 'created',
    outcome: 'success',
    durationSeconds: 1,
    allowFailure: false,
    coverage: null,
    startedAt: null,
    finishedAt: null,
    ...extra,
  };
}

const pending: PipelineState = { status: 'pending', startedAt: null, finishedAt: null };

/** Runs the runner's steps at the times it asks for, until it stops asking. */
function runToEnd(pipeline: PipelineState, jobs: JobState[], start = 0): { step: Step; wakes: number[] } {
  let step = advancePipeline(pipeline, jobs, at(start), SCALE);
  let now = start * 1000;
  const wakes: number[] = [];
  while (step.wakeInMs !== null) {
    wakes.push(step.wakeInMs);
    now += step.wakeInMs;
    step = advancePipeline(step.pipeline, step.jobs, new Date(T0 + now), SCALE);
  }
  return { step, wakes };
}

const statuses = (step: Step) => step.jobs.map((j) => j.status);

describe('advancePipeline', () => {
  it('starts a pending pipeline: running, first stage running, wake when its longest job is due', () => {
    const step = advancePipeline(
      pending,
      [job(1, 0, { durationSeconds: 2 }), job(2, 0, { durationSeconds: 3 }), job(3, 1)],
      at(0),
      SCALE,
    );
    expect(step.pipeline).toEqual({ status: 'running', startedAt: iso(0), finishedAt: null });
    expect(statuses(step)).toEqual(['running', 'running', 'created']);
    expect(step.changedJobIds).toEqual([1, 2]);
    expect(step.pipelineChanged).toBe(true);
    expect(step.wakeInMs).toBe(2000);
  });

  it('runs the stages in order and succeeds, finishing jobs at the time they were due', () => {
    const { step, wakes } = runToEnd(pending, [
      job(1, 0, { durationSeconds: 2 }),
      job(2, 1, { durationSeconds: 3 }),
    ]);
    expect(wakes).toEqual([2000, 3000]);
    expect(step.pipeline).toEqual({ status: 'success', startedAt: iso(0), finishedAt: iso(5) });
    expect(step.jobs.map((j) => [j.status, j.startedAt, j.finishedAt])).toEqual([
      ['success', iso(0), iso(2)],
      ['success', iso(2), iso(5)],
    ]);
    expect(pipelineDuration(step.jobs)).toBe(5);
  });

  it('scales durations by the time factor', () => {
    const step = advancePipeline(pending, [job(1, 0, { durationSeconds: 100 })], at(0), 0.01);
    expect(step.wakeInMs).toBe(1000);
  });

  it('is idempotent: the same step at the same time changes nothing more', () => {
    const first = advancePipeline(pending, [job(1, 0, { durationSeconds: 5 })], at(0), SCALE);
    const again = advancePipeline(first.pipeline, first.jobs, at(1), SCALE);
    expect(again.pipelineChanged).toBe(false);
    expect(again.changedJobIds).toEqual([]);
    expect(again.wakeInMs).toBe(4000);
  });

  it('catches up after a pause (a restart): overdue jobs finish and the next stage starts', () => {
    const first = advancePipeline(
      pending,
      [job(1, 0, { durationSeconds: 1 }), job(2, 1, { durationSeconds: 1 })],
      at(0),
      SCALE,
    );
    const late = advancePipeline(first.pipeline, first.jobs, at(60), SCALE);
    expect(late.jobs.map((j) => [j.status, j.finishedAt])).toEqual([
      ['success', iso(1)],
      ['running', null],
    ]);
    expect(late.jobs[1]?.startedAt).toBe(iso(60));
  });

  it('fails when a job fails without allow_failure, after its stage, and skips later stages', () => {
    const { step } = runToEnd(pending, [
      job(1, 0, { outcome: 'failed' }),
      job(2, 0, { durationSeconds: 3 }),
      job(3, 1),
      job(4, 2),
    ]);
    expect(step.pipeline.status).toBe('failed');
    expect(step.pipeline.finishedAt).toBe(iso(3));
    expect(statuses(step)).toEqual(['failed', 'success', 'skipped', 'skipped']);
  });

  it('goes on past a failed job with allow_failure', () => {
    const { step } = runToEnd(pending, [job(1, 0, { outcome: 'failed', allowFailure: true }), job(2, 1)]);
    expect(step.pipeline.status).toBe('success');
    expect(statuses(step)).toEqual(['failed', 'success']);
  });

  it('skips declared-skipped jobs without waiting', () => {
    const { step, wakes } = runToEnd(pending, [
      job(1, 0, { outcome: 'skipped', durationSeconds: 50 }),
      job(2, 1),
    ]);
    expect(wakes).toEqual([1000]);
    expect(statuses(step)).toEqual(['skipped', 'success']);
    expect(step.pipeline.status).toBe('success');
  });

  it('is skipped when every job is skipped', () => {
    const { step } = runToEnd(pending, [
      job(1, 0, { outcome: 'skipped' }),
      job(2, 1, { outcome: 'skipped' }),
    ]);
    expect(step.pipeline.status).toBe('skipped');
    expect(step.pipeline.finishedAt).toBe(iso(0));
  });

  it('blocks on a manual job: the pipeline waits in manual, later stages stay created', () => {
    const { step } = runToEnd(pending, [job(1, 0), job(2, 1, { outcome: 'manual' }), job(3, 1), job(4, 2)]);
    expect(step.pipeline).toEqual({ status: 'manual', startedAt: iso(0), finishedAt: null });
    expect(statuses(step)).toEqual(['success', 'manual', 'success', 'created']);
    expect(advancePipeline(step.pipeline, step.jobs, at(100), SCALE).wakeInMs).toBeNull();
  });

  it('does nothing to a pipeline that is not pending or running', () => {
    for (const status of ['success', 'failed', 'canceled', 'skipped', 'manual'] as const) {
      const step = advancePipeline({ status, startedAt: null, finishedAt: null }, [job(1, 0)], at(0), SCALE);
      expect(step.pipelineChanged).toBe(false);
      expect(step.changedJobIds).toEqual([]);
      expect(step.wakeInMs).toBeNull();
    }
  });
});

describe('cancelPipeline', () => {
  it('cancels every job that has not finished, and the pipeline', () => {
    const running = advancePipeline(
      pending,
      [job(1, 0, { durationSeconds: 1 }), job(2, 0, { durationSeconds: 10 }), job(3, 1)],
      at(0),
      SCALE,
    );
    const later = advancePipeline(running.pipeline, running.jobs, at(2), SCALE);
    const step = cancelPipeline(later.pipeline, later.jobs, at(3));
    expect(step?.pipeline).toEqual({ status: 'canceled', startedAt: iso(0), finishedAt: iso(3) });
    expect(step?.jobs.map((j) => [j.status, j.finishedAt])).toEqual([
      ['success', iso(1)],
      ['canceled', iso(3)],
      ['canceled', null],
    ]);
    expect(step?.changedJobIds).toEqual([2, 3]);
  });

  it('cancels a pending pipeline, and leaves any other one alone (null)', () => {
    expect(cancelPipeline(pending, [job(1, 0)], at(0))?.pipeline.status).toBe('canceled');
    for (const status of ['success', 'failed', 'canceled', 'skipped', 'manual', 'created'] as const) {
      expect(cancelPipeline({ status, startedAt: null, finishedAt: null }, [job(1, 0)], at(0))).toBeNull();
    }
  });
});

describe('dropPipeline', () => {
  it('fails every job still alive (created or running, a later stage included) and the pipeline', () => {
    const running = advancePipeline(
      pending,
      [
        job(1, 0, { durationSeconds: 1 }),
        job(2, 0, { durationSeconds: 10 }),
        job(3, 1),
        job(4, 1, { outcome: 'manual' }),
      ],
      at(0),
      SCALE,
    );
    const later = advancePipeline(running.pipeline, running.jobs, at(2), SCALE);
    const step = dropPipeline(later.pipeline, later.jobs, at(3));
    expect(step?.pipeline).toEqual({ status: 'failed', startedAt: iso(0), finishedAt: iso(3) });
    expect(step?.jobs.map((j) => [j.status, j.finishedAt])).toEqual([
      ['success', iso(1)],
      ['failed', iso(3)],
      ['failed', null],
      ['failed', null],
    ]);
    expect(step?.wakeInMs).toBeNull();
  });

  it('leaves a pipeline that is not active alone (null)', () => {
    for (const status of ['success', 'failed', 'canceled', 'skipped', 'manual', 'created'] as const)
      expect(dropPipeline({ status, startedAt: null, finishedAt: null }, [job(1, 0)], at(0))).toBeNull();
  });
});

describe('retryPipeline', () => {
  it('re-runs the failed jobs and those skipped after them, then succeeds on the same declarations', () => {
    const failed = runToEnd(pending, [job(1, 0), job(2, 0, { outcome: 'failed' }), job(3, 1)]).step;
    expect(failed.pipeline.status).toBe('failed');
    const step = retryPipeline(failed.pipeline, failed.jobs);
    expect(step?.pipeline).toEqual({ status: 'pending', startedAt: iso(0), finishedAt: null });
    expect(statuses(step as Step)).toEqual(['success', 'created', 'created']);
    expect(step?.changedJobIds).toEqual([2, 3]);
    expect(step?.wakeInMs).toBe(0);
  });

  it('re-runs the canceled jobs of a canceled pipeline', () => {
    const canceled = cancelPipeline(pending, [job(1, 0), job(2, 1)], at(0)) as Step;
    const retried = retryPipeline(canceled.pipeline, canceled.jobs) as Step;
    const { step } = runToEnd(retried.pipeline, retried.jobs, 10);
    expect(step.pipeline.status).toBe('success');
  });

  it('retries nothing when no job failed or was canceled, or when the pipeline has not finished', () => {
    const success = runToEnd(pending, [job(1, 0)]).step;
    expect(retryPipeline(success.pipeline, success.jobs)).toBeNull();
    expect(retryPipeline({ status: 'failed', startedAt: null, finishedAt: iso(0) }, [])).toBeNull();
    for (const status of ['pending', 'running', 'manual', 'created'] as const) {
      expect(
        retryPipeline({ status, startedAt: null, finishedAt: null }, [job(1, 0, { status: 'failed' })]),
      ).toBeNull();
    }
  });
});

describe('duration and coverage', () => {
  it('sums the longest job of each stage that ran; null when none ran', () => {
    const jobs = [
      job(1, 0, { status: 'success', durationSeconds: 2 }),
      job(2, 0, { status: 'failed', durationSeconds: 4 }),
      job(3, 1, { status: 'success', durationSeconds: 1.4 }),
      job(4, 2, { status: 'skipped', durationSeconds: 100 }),
    ];
    expect(pipelineDuration(jobs)).toBe(5);
    expect(pipelineDuration([job(1, 0, { status: 'canceled' })])).toBeNull();
  });

  it('averages the coverage of the jobs that ran, rendered as GitLab does', () => {
    expect(
      pipelineCoverage([
        job(1, 0, { status: 'success', coverage: 80 }),
        job(2, 0, { status: 'failed', coverage: 91 }),
      ]),
    ).toBe('85.5');
    expect(pipelineCoverage([job(1, 0, { status: 'success', coverage: 30 })])).toBe('30.0');
    expect(pipelineCoverage([job(1, 0, { status: 'success', coverage: 100 / 3 })])).toBe('33.33');
    expect(
      pipelineCoverage([job(1, 0, { status: 'created', coverage: 50 }), job(2, 0, { status: 'success' })]),
    ).toBeNull();
  });
});
