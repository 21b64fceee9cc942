/**
 * `git diff-tree --stdin -p -M --always` kept running per repository (see processPool.ts), for the diff
 * between two commits without a process spawn each (a push e-mail shows one per push).
 *
 * A request is two lines: `<to> <from>` (the diff of `to` against `from` given as its parent, which is
 * `git diff <from> <to>`: rename detection on, as `git diff` has it by default) and `<to> <to>` (an empty
 * diff). diff-tree answers each line with the line's first commit on a line of its own (`--always`: even
 * when the diff is empty), then the patch, and flushes after each line: the answer is what lies between
 * the first header and the second. A patch never holds a bare 40-hex line (every patch line starts with a
 * prefix: ` `, `+`, `-`, `@@`, `diff`, `index`…). Requests to one process are answered in order; one that a
 * dying process took down is retried once on a fresh process (a diff can be asked again).
 */

import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  type PooledProcess,
  ProcessPool,
  type ProcessPoolOptions,
  setReferenced,
  spawnPiped,
} from './processPool.js';

const OBJECT_ID = /^[0-9a-f]{40}$/;
const MAX_STDERR = 4096;

/** A request a diff-tree process could not answer because it exited (or never started). */
export class DiffTreeExitedError extends Error {
  constructor(
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git diff-tree --stdin exited${exitCode === null ? '' : ` with ${exitCode}`}: ${stderr.trim()}`);
    this.name = 'DiffTreeExitedError';
  }
}

interface Pending {
  to: string;
  resolve: (patch: Buffer) => void;
  reject: (error: Error) => void;
}

export class DiffTreeProcess implements PooledProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: Pending[] = [];
  private buffered: Buffer = Buffer.alloc(0);
  private stderr = '';
  private exited = false;
  private closing = false;

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawnPiped(args, env);
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-MAX_STDERR);
    });
    this.child.on('error', (error) => this.fail(new DiffTreeExitedError(null, String(error))));
    this.child.on('close', (code) => this.fail(new DiffTreeExitedError(code, this.stderr)));
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

  /** The patch from commit `from` to commit `to` (both full SHAs of commits of this repository). */
  diff(from: string, to: string): Promise<Buffer> {
    if (!OBJECT_ID.test(from) || !OBJECT_ID.test(to)) return Promise.reject(new Error('invalid commit id'));
    if (!this.alive) return Promise.reject(new DiffTreeExitedError(null, 'process is closed'));
    return new Promise((resolve, reject) => {
      this.pending.push({ to, resolve, reject });
      if (this.pending.length === 1) setReferenced(this.child, true);
      this.child.stdin.write(`${to} ${from}\n${to} ${to}\n`);
    });
  }

  close(): void {
    if (this.closing || this.exited) return;
    this.closing = true;
    this.child.stdin.end();
  }

  exit(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  private receive(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const request = this.pending[0];
      if (!request) {
        if (this.buffered.length > 0) this.unexpected();
        return;
      }
      const header = Buffer.from(`${request.to}\n`);
      if (this.buffered.length < header.length) return;
      if (!this.buffered.subarray(0, header.length).equals(header)) {
        this.unexpected();
        return;
      }
      // The second header ends the answer: right after the first, or after the patch's last newline.
      let end = -1;
      if (this.buffered.subarray(header.length, 2 * header.length).equals(header)) end = header.length;
      else {
        const found = this.buffered.indexOf(Buffer.from(`\n${request.to}\n`), header.length);
        if (found >= 0) end = found + 1;
      }
      if (end < 0) return;
      const patch = Buffer.from(this.buffered.subarray(header.length, end));
      this.buffered = this.buffered.subarray(end + header.length);
      this.pending.shift();
      if (this.pending.length === 0) setReferenced(this.child, false);
      request.resolve(patch);
    }
  }

  /** Output nobody asked for, or not in the expected shape: the stream cannot be trusted any more. */
  private unexpected(): void {
    this.fail(new DiffTreeExitedError(null, `unexpected output from git diff-tree: ${this.stderr}`));
    this.child.kill('SIGKILL');
  }

  private fail(error: Error): void {
    this.exited = true;
    const pending = this.pending.splice(0);
    setReferenced(this.child, false);
    for (const request of pending) request.reject(error);
  }
}

export class DiffTreeReader {
  private readonly pool: ProcessPool<DiffTreeProcess>;

  constructor(
    command: (path: string) => { args: string[]; env: NodeJS.ProcessEnv },
    options: ProcessPoolOptions,
  ) {
    this.pool = new ProcessPool((path) => {
      const { args, env } = command(path);
      return new DiffTreeProcess(args, env);
    }, options);
  }

  /** The patch from commit `from` to commit `to` in the repository at `path`. */
  async diff(path: string, from: string, to: string): Promise<Buffer> {
    try {
      return await this.pool.get(path).diff(from, to);
    } catch (error) {
      if (!(error instanceof DiffTreeExitedError)) throw error;
      return await this.pool.get(path).diff(from, to);
    }
  }

  processId(path: string): number | undefined {
    return this.pool.processId(path);
  }
}
