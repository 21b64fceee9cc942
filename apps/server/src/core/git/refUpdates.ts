/**
 * `git update-ref --stdin` kept running per repository (see processPool.ts), for compare-and-swap ref
 * updates without a process spawn each.
 *
 * Each update is one transaction, written whole: `start`, `update <ref> <new> <old>`, `prepare`, `commit`.
 * git answers `start: ok`, `prepare: ok` (the ref is locked and holds <old>) and `commit: ok` (it holds
 * <new>); the checks and locking are exactly those of `git update-ref <ref> <new> <old>`. A failed prepare
 * (the ref moved) makes git 2.39 die, so the next update starts a new process. Transactions of one
 * repository run one after the other, so the one that killed a process is never followed by another
 * written to the same process. What the answers prove:
 * - no `start: ok`: git never read the transaction (the process had already died): safe to send again;
 * - `start: ok` without `prepare: ok`: the update was refused, nothing changed;
 * - `prepare: ok` without `commit: ok`: the process died between the two, the caller must look.
 */

import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  type PooledProcess,
  ProcessPool,
  type ProcessPoolOptions,
  setReferenced,
  spawnPiped,
} from './processPool.js';

export type RefUpdateOutcome = 'committed' | 'refused' | 'unknown';

type Attempt = RefUpdateOutcome | 'not_started';

const REF_NAME = /^refs\/[^\s\0]+$/;
const OBJECT_ID = /^[0-9a-f]{40}$/;

export class UpdateRefProcess implements PooledProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private partial = '';
  private waiter: (() => void) | null = null;
  private exited = false;
  private closing = false;
  private working = false;
  /** Set when git could not be started at all (as opposed to git exiting). */
  spawnError: Error | undefined;

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawnPiped(args, env);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      const parts = (this.partial + chunk).split('\n');
      this.partial = parts.pop() ?? '';
      this.lines.push(...parts);
      this.wake();
    });
    // Read (and dropped) so that git never blocks on a full pipe; refusals need no message here.
    this.child.stderr.resume();
    this.child.on('error', (error) => {
      this.spawnError = error;
      this.exited = true;
      this.wake();
    });
    this.child.on('close', () => {
      this.exited = true;
      this.wake();
    });
    setReferenced(this.child, false);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited && !this.closing;
  }

  get busy(): boolean {
    return this.working;
  }

  /** One compare-and-swap; the caller must not start another on this process before it settles. */
  async update(ref: string, newId: string, oldId: string): Promise<Attempt> {
    if (!REF_NAME.test(ref) || !OBJECT_ID.test(newId) || !OBJECT_ID.test(oldId))
      throw new Error(`invalid ref update: ${ref} ${newId} ${oldId}`);
    if (!this.alive) return 'not_started';
    this.working = true;
    setReferenced(this.child, true);
    try {
      // One write of a few hundred bytes: a pipe takes it whole, so git never sees half a transaction.
      this.child.stdin.write(`start\nupdate ${ref} ${newId} ${oldId}\nprepare\ncommit\n`);
      if (!(await this.expect('start'))) return 'not_started';
      if (!(await this.expect('prepare'))) return 'refused';
      if (!(await this.expect('commit'))) return 'unknown';
      return 'committed';
    } finally {
      this.working = false;
      setReferenced(this.child, false);
    }
  }

  close(): void {
    if (this.closing || this.exited) return;
    this.closing = true;
    this.child.stdin.end();
  }

  /**
   * Not killed on exit: a transaction git has read is finished by git, and the end of its input (the
   * server's pipes close as it exits) ends the process.
   */
  exit(): void {}

  /** Whether the next answer is `<command>: ok`; false when the process exited first (or said otherwise). */
  private async expect(command: string): Promise<boolean> {
    const line = await this.nextLine();
    if (line === `${command}: ok`) return true;
    if (line !== null) {
      // Not the protocol we know: stop using this process.
      this.closing = true;
      this.child.kill('SIGKILL');
    }
    return false;
  }

  private async nextLine(): Promise<string | null> {
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) return line;
      if (this.exited) return null;
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }
}

export class RefUpdater {
  private readonly pool: ProcessPool<UpdateRefProcess>;
  /** The last queued update per repository: updates of one repository run one after the other. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    command: (path: string) => { args: string[]; env: NodeJS.ProcessEnv },
    options: ProcessPoolOptions,
  ) {
    this.pool = new ProcessPool((path) => {
      const { args, env } = command(path);
      return new UpdateRefProcess(args, env);
    }, options);
  }

  /**
   * Sets `ref` to `newId` if it holds `oldId` (the zero id: if it does not exist). `refused` when it did
   * not (or git refused the update for another reason, as `git update-ref` would have); `unknown` when
   * git died between locking and committing.
   */
  update(path: string, ref: string, newId: string, oldId: string): Promise<RefUpdateOutcome> {
    const previous = this.queues.get(path) ?? Promise.resolve();
    const run = previous.then(() => this.attempt(path, ref, newId, oldId));
    const settled = run.catch(() => undefined);
    this.queues.set(path, settled);
    void settled.then(() => {
      if (this.queues.get(path) === settled) this.queues.delete(path);
    });
    return run;
  }

  processId(path: string): number | undefined {
    return this.pool.processId(path);
  }

  closeAll(): void {
    this.pool.closeAll();
  }

  private async attempt(path: string, ref: string, newId: string, oldId: string): Promise<RefUpdateOutcome> {
    // The first process may have died before (killed while idle): a fresh one gets the transaction again.
    const outcome = await this.pool.get(path).update(ref, newId, oldId);
    if (outcome !== 'not_started') return outcome;
    const fresh = this.pool.get(path);
    const retried = await fresh.update(ref, newId, oldId);
    if (retried !== 'not_started') return retried;
    // A fresh git that exits without reading anything failed the way a one-shot `update-ref` exiting
    // non-zero did (no repository there…): refused. Only a git that cannot be started at all throws.
    if (fresh.spawnError) throw fresh.spawnError;
    return 'refused';
  }
}
