/**
 * A long-lived git process (see processPool.ts) that answers requests written to its input in order, each
 * answer read back from its output: `git cat-file --batch` and `git diff-tree --stdin`. This holds what both
 * share: the pipes, the queue of pending requests (the process keeps the event loop alive only while it has
 * some), the tail of stderr, and how an exit or output out of order fails every pending request with the
 * kind's own error, so that its reader can ask a fresh process again. A kind says how requests are written
 * and how the output is cut into answers (`receive`).
 */

import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  type PooledProcess,
  ProcessPool,
  type ProcessPoolOptions,
  setReferenced,
  spawnPiped,
} from './processPool.js';

const MAX_STDERR = 4096;

/** A request a process could not answer because it exited (or never started): a fresh one may. */
export class RequestPipeExitedError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`${command} exited${exitCode === null ? '' : ` with ${exitCode}`}: ${stderr.trim()}`);
    this.name = 'RequestPipeExitedError';
  }
}

/** A request waiting for its answer. */
export interface PendingRequest<Answer> {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

export abstract class RequestPipeProcess<Pending extends PendingRequest<never>> implements PooledProcess {
  protected readonly child: ChildProcessWithoutNullStreams;
  /** In the order they were written, which is the order of the answers. */
  protected readonly pending: Pending[] = [];
  private stderr = '';
  private exited = false;
  private closing = false;

  /** `command` names the process in errors (`git cat-file --batch`). */
  constructor(
    private readonly command: string,
    args: string[],
    env: NodeJS.ProcessEnv,
  ) {
    this.child = spawnPiped(args, env);
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-MAX_STDERR);
    });
    this.child.on('error', (error) => this.fail(this.exitedError(null, String(error))));
    this.child.on('close', (code) => this.fail(this.exitedError(code, this.stderr)));
    setReferenced(this.child, false);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited && !this.closing;
  }

  get busy(): boolean {
    return this.pending.length > 0;
  }

  close(): void {
    if (this.closing || this.exited) return;
    this.closing = true;
    this.child.stdin.end();
  }

  exit(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /** Queues `request` and writes its input (whole, in one write); refused at once when closed. */
  protected send(request: Pending, input: string): void {
    if (!this.alive) {
      request.reject(this.exitedError(null, 'process is closed'));
      return;
    }
    this.pending.push(request);
    if (this.pending.length === 1) setReferenced(this.child, true);
    this.child.stdin.write(input);
  }

  /** Takes the first pending request off the queue, its answer being complete. */
  protected takeFirst(): Pending | undefined {
    const request = this.pending.shift();
    if (this.pending.length === 0) setReferenced(this.child, false);
    return request;
  }

  /** Whether the process has exited (or was given up): `receive` stops cutting answers then. */
  protected get hasExited(): boolean {
    return this.exited;
  }

  /** Output nobody asked for, or not in the expected shape: the stream cannot be trusted any more. */
  protected unexpectedOutput(): void {
    this.fail(this.exitedError(null, `unexpected output from ${this.command}: ${this.stderr}`));
    this.child.kill('SIGKILL');
  }

  /** Cuts the output received so far into answers for the pending requests, in order. */
  protected abstract receive(chunk: Buffer): void;

  private exitedError(code: number | null, stderr: string): RequestPipeExitedError {
    return new RequestPipeExitedError(this.command, code, stderr);
  }

  private fail(error: Error): void {
    this.exited = true;
    const pending = this.pending.splice(0);
    setReferenced(this.child, false);
    for (const request of pending) request.reject(error);
  }
}

/** One process of a kind per repository, and a request that its process's exit took down asked once more. */
export class RequestPipePool<P extends RequestPipeProcess<PendingRequest<never>>> {
  private readonly pool: ProcessPool<P>;

  constructor(
    create: (args: string[], env: NodeJS.ProcessEnv) => P,
    command: (path: string) => { args: string[]; env: NodeJS.ProcessEnv },
    options: ProcessPoolOptions,
  ) {
    this.pool = new ProcessPool((path) => {
      const { args, env } = command(path);
      return create(args, env);
    }, options);
  }

  /** `ask` of the repository's process; once more of a fresh process when the first had exited. */
  async ask<Answer>(path: string, ask: (process: P) => Promise<Answer>): Promise<Answer> {
    try {
      return await ask(this.pool.get(path));
    } catch (error) {
      if (!(error instanceof RequestPipeExitedError)) throw error;
      return await ask(this.pool.get(path));
    }
  }

  processId(path: string): number | undefined {
    return this.pool.processId(path);
  }

  closeAll(): void {
    this.pool.closeAll();
  }
}
