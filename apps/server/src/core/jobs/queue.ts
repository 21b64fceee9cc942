// A table-backed job queue run in-process: work survives a restart because it lives in the database.
// One job runs at a time (SQLite has one writer anyway); handlers move their objects through their states
// and may enqueue the next step with a delay. A job is claimed with a conditional update, so queues of
// several processes on one data directory (or several instances on one PostgreSQL database) never run the
// same job twice. Claims and state updates are single statements that wait for the write lock like every
// other (core/store/writeLocking.ts): a busy database never fails a job.
//
// The due jobs are found and marked done a batch at a time (one statement each), not one job at a time: a
// commit queues several jobs (its hook deliveries, its integrations' messages), and a queue that is woken by
// an enqueue waits a moment (ENQUEUE_WAKE_DELAY_MS) so that one look finds them together. Each job of a batch
// is claimed as it starts (a claim of the whole batch would hold the jobs a killed process never started
// for a whole lease); each is marked done with the rest of its batch, so a process that dies meanwhile has
// the batch's finished jobs run again, as any job of a dead process is.
//
// The claimed jobs' rows are touched (updated_at) every quarter of the lease while their batch runs. A job
// whose row has not been touched for a whole lease was left by a process that died (killed, its machine
// gone): any queue puts it back in the queue, and it runs again (handlers are idempotent). A live process's
// job is never taken from it, so queues of several instances may start and stop at any time.
import type { Db } from '../store/database.js';
import { refreshDatabaseVersion } from '../store/databaseVersion.js';
import type { JobsTable } from '../store/tables.js';

export type JobRow = Omit<JobsTable, 'id'> & { id: number };
/** How many due jobs one query of the queue finds. */
const DUE_JOBS_BATCH = 10;
/** How long a queue woken by an enqueue waits before it looks, so that one look finds a request's jobs. */
const ENQUEUE_WAKE_DELAY_MS = 2;
export type JobHandler = (payload: unknown, job: JobRow) => Promise<void>;

export interface JobQueueOptions {
  /** How often the queue looks for due jobs when idle (default 100 ms). */
  pollIntervalMs?: number;
  /** How long a running job's row may go untouched before its process counts as dead (default 30 s). */
  leaseMs?: number;
}

export class JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly pollIntervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private readonly leaseMs: number;
  private nextRecoveryAt = 0;
  /** A look for due jobs is scheduled after an enqueue. */
  private wakingSoon = false;
  /** When the looks for due jobs began to fail (undefined while they work). */
  private failingSince: number | undefined;

  constructor(
    private readonly db: Db,
    options: JobQueueOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  register(kind: string, handler: JobHandler): void {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
    this.handlers.set(kind, handler);
  }

  /**
   * Queues a job. With `executor` (a transaction) the job is queued by that transaction, so it exists exactly
   * when the transaction's other writes do.
   */
  async enqueue(
    kind: string,
    payload: unknown,
    options: { delayMs?: number; executor?: Db } = {},
  ): Promise<number> {
    const now = new Date();
    const runAt = new Date(now.getTime() + (options.delayMs ?? 0)).toISOString();
    const { id } = await (options.executor ?? this.db)
      .insertInto('jobs')
      .values({
        kind,
        payload: JSON.stringify(payload),
        state: 'queued',
        run_at: runAt,
        attempts: 0,
        last_error: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    this.wakeSoon();
    return id;
  }

  /**
   * Queues a job unless the same one (kind and payload) is already waiting to start: for work whose one run
   * covers every request made before it starts, such as detecting a repository's languages after a burst of
   * pushes. The check and the insert are one transaction, so two processes never queue it twice.
   */
  async enqueueUnlessWaiting(kind: string, payload: unknown): Promise<void> {
    const text = JSON.stringify(payload);
    await this.db.transaction().execute(async (trx) => {
      const waiting = await trx
        .selectFrom('jobs')
        .select('id')
        .where('state', '=', 'queued')
        .where('kind', '=', kind)
        .where('payload', '=', text)
        .executeTakeFirst();
      if (!waiting) await this.enqueue(kind, payload, { executor: trx });
    });
  }

  /** Starts processing. A job left `running` by a dead process is run again once its lease is over. */
  async start(): Promise<void> {
    await this.recoverAbandonedJobs();
    this.stopped = false;
    this.wake();
  }

  /** Puts back in the queue the running jobs whose rows nobody touched for a lease (their process died). */
  private async recoverAbandonedJobs(): Promise<void> {
    this.nextRecoveryAt = Date.now() + this.leaseMs / 2;
    const expired = new Date(Date.now() - this.leaseMs).toISOString();
    // A read first: on SQLite an update takes the write lock even when it changes nothing.
    const abandoned = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('state', '=', 'running')
      .where('updated_at', '<', expired)
      .executeTakeFirst();
    if (!abandoned) return;
    await this.db
      .updateTable('jobs')
      .set({ state: 'queued', updated_at: new Date().toISOString() })
      .where('state', '=', 'running')
      .where('updated_at', '<', expired)
      .execute();
  }

  /** Stops taking jobs and waits for the one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Resolves when no job is due or running (jobs scheduled later do not count). For tests and commands. */
  async idle(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const due = await this.db
        .selectFrom('jobs')
        .select('id')
        .where((eb) =>
          eb.or([
            eb('state', '=', 'running'),
            eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', new Date().toISOString())]),
          ]),
        )
        .executeTakeFirst();
      if (!due && !this.running) return;
      if (Date.now() > deadline) throw new Error('job queue did not become idle in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Runs `work`, touching the rows of the jobs `ids` still holds every quarter of the lease meanwhile. */
  private async whileHoldingLease(ids: () => readonly number[], work: () => Promise<void>): Promise<void> {
    const touch = setInterval(() => {
      const held = ids();
      if (held.length === 0) return;
      this.db
        .updateTable('jobs')
        .set({ updated_at: new Date().toISOString() })
        .where('id', 'in', held)
        .where('state', '=', 'running')
        .execute()
        // A missed touch is made up by the next one; the lease allows three.
        .catch(() => {});
    }, this.leaseMs / 4);
    touch.unref();
    try {
      await work();
    } finally {
      clearInterval(touch);
    }
  }

  /** Looks for due jobs in a moment (an enqueue: more may follow), unless a look is under way or sooner. */
  private wakeSoon(): void {
    if (this.stopped || this.running || this.wakingSoon) return;
    this.wakingSoon = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), ENQUEUE_WAKE_DELAY_MS);
  }

  private wake(): void {
    if (this.stopped || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.wakingSoon = false;
    this.running = this.runDueJobs()
      .then(
        () => this.lookSucceeded(),
        (error: unknown) => this.lookFailed(error),
      )
      .finally(() => {
        this.running = undefined;
        if (!this.stopped) this.timer = setTimeout(() => this.wake(), this.pollIntervalMs);
      });
  }

  /**
   * A look that failed (the database unreachable: PostgreSQL restarting, a disk full) is tried again at the
   * next poll, as a failed touch is: an instance outlives its database's outage instead of ending on an
   * unhandled rejection. Its claimed jobs go back to the queue once their lease is over. The first failure
   * of a run of them is logged, and the recovery, so that an outage writes two lines, not one per poll.
   */
  private lookFailed(error: unknown): void {
    if (this.failingSince !== undefined) return;
    this.failingSince = Date.now();
    console.error('jobs: looking for due jobs failed; trying again every poll:', error);
  }

  private lookSucceeded(): void {
    if (this.failingSince === undefined) return;
    console.error(`jobs: looking for due jobs works again after ${Date.now() - this.failingSince} ms`);
    this.failingSince = undefined;
  }

  private async runDueJobs(): Promise<void> {
    if (Date.now() >= this.nextRecoveryAt) await this.recoverAbandonedJobs();
    while (!this.stopped) {
      // The due jobs a batch at a time, in order. Jobs queued meanwhile are found by the next batch.
      const due = await this.db
        .selectFrom('jobs')
        .selectAll()
        .where('state', '=', 'queued')
        .where('run_at', '<=', new Date().toISOString())
        .orderBy('run_at')
        .orderBy('id')
        .limit(DUE_JOBS_BATCH)
        .execute();
      if (due.length === 0) return;
      await this.runBatch(due);
    }
  }

  /**
   * Claims `job` if it is still queued: another process on the same data directory (a second server, a
   * command) may have taken it since the select.
   */
  private async claim(job: JobRow): Promise<boolean> {
    const claimed = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'running',
        attempts: eb('attempts', '+', 1),
        updated_at: new Date().toISOString(),
      }))
      .where('id', '=', job.id)
      .where('state', '=', 'queued')
      .returning('id')
      .executeTakeFirst();
    return claimed !== undefined;
  }

  /**
   * Runs the due jobs in order, each claimed as it starts: a job this process has not started is never held
   * by it, so a process killed meanwhile leaves the rest of its batch to other queues at once. The finished
   * jobs are marked done together.
   */
  private async runBatch(due: readonly JobRow[]): Promise<void> {
    const done: number[] = [];
    let current: JobRow | undefined;
    await this.whileHoldingLease(
      () => [...done, ...(current ? [current.id] : [])],
      async () => {
        for (const job of due) {
          if (this.stopped) break;
          if (!(await this.claim(job))) continue;
          current = job;
          if (await this.run(job)) done.push(job.id);
          current = undefined;
        }
      },
    );
    if (done.length > 0)
      await this.db
        .updateTable('jobs')
        .set({ state: 'done', updated_at: new Date().toISOString() })
        .where('id', 'in', done)
        .execute();
  }

  /** Runs one claimed job; false when it failed (and is marked so). */
  private async run(job: JobRow): Promise<boolean> {
    const handler = this.handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      // A job, like a request, sees what other instances changed before it started.
      await refreshDatabaseVersion(this.db);
      await handler(JSON.parse(job.payload), job);
      return true;
    } catch (error) {
      await this.db
        .updateTable('jobs')
        .set({ state: 'failed', last_error: String(error), updated_at: new Date().toISOString() })
        .where('id', '=', job.id)
        .execute();
      return false;
    }
  }
}
