/**
 * `git cat-file --batch` kept running per repository (see processPool.ts).
 *
 * Requests to one process are written whole and answered in order (cat-file reads its input line by line
 * and answers each line before reading on), so concurrent callers simply queue. A request that a dying
 * process took down with it is retried once on a fresh process: reads can be repeated. A process that
 * outlived a replacement of its repository directory would still answer correctly (refs and loose objects
 * are looked up by path on every request, and an object read by SHA is the same object anywhere).
 */

import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  type PooledProcess,
  ProcessPool,
  type ProcessPoolOptions,
  setReferenced,
  spawnPiped,
} from './processPool.js';

export interface BatchObject {
  id: string;
  type: string;
  content: Buffer;
}

/** A request a cat-file process could not answer because it exited (or never started). */
export class CatFileExitedError extends Error {
  constructor(
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git cat-file --batch exited${exitCode === null ? '' : ` with ${exitCode}`}: ${stderr.trim()}`);
    this.name = 'CatFileExitedError';
  }
}

interface Pending {
  results: (BatchObject | null)[];
  count: number;
  resolve: (results: (BatchObject | null)[]) => void;
  reject: (error: Error) => void;
}

const HEADER = /^([0-9a-f]{40}) (\w+) (\d+)$/;
const MAX_STDERR = 4096;

export class CatFileProcess implements PooledProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: Pending[] = [];
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Header of the object whose content is being received, if any. */
  private current: { id: string; type: string; size: number } | null = null;
  private stderr = '';
  private exited = false;
  private closing = false;

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawnPiped(args, env);
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-MAX_STDERR);
    });
    this.child.on('error', (error) => this.fail(new CatFileExitedError(null, String(error))));
    this.child.on('close', (code) => this.fail(new CatFileExitedError(code, this.stderr)));
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

  /** One result per line, in order: the object, or null when the name does not resolve. */
  request(lines: readonly string[]): Promise<(BatchObject | null)[]> {
    if (!this.alive) return Promise.reject(new CatFileExitedError(null, 'process is closed'));
    if (lines.some((line) => /[\n\0]/.test(line))) return Promise.reject(new Error('invalid object name'));
    if (lines.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.pending.push({ results: [], count: lines.length, resolve, reject });
      if (this.pending.length === 1) setReferenced(this.child, true);
      this.child.stdin.write(`${lines.join('\n')}\n`);
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
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.current === null) {
        const data = this.joined();
        const newline = data.indexOf(0x0a);
        if (newline < 0) return;
        const header = data.subarray(0, newline).toString('utf8');
        this.keep(data.subarray(newline + 1));
        const match = HEADER.exec(header);
        if (match) {
          this.current = { id: match[1] ?? '', type: match[2] ?? '', size: Number(match[3]) };
        } else {
          this.deliver(null); // "<name> missing" or "<name> ambiguous"
        }
      } else {
        // The content and its terminating newline; joined only once complete (objects can be large).
        const needed = this.current.size + 1;
        if (this.buffered < needed) return;
        const data = this.joined();
        const object = { ...this.current, content: data.subarray(0, this.current.size) };
        this.keep(data.subarray(needed));
        this.current = null;
        this.deliver(object);
      }
      if (this.exited) return;
    }
  }

  private joined(): Buffer {
    const data = this.chunks.length === 1 ? (this.chunks[0] ?? Buffer.alloc(0)) : Buffer.concat(this.chunks);
    this.chunks = [data];
    return data;
  }

  private keep(rest: Buffer): void {
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
  }

  private deliver(object: BatchObject | null): void {
    const request = this.pending[0];
    if (!request) {
      // Output nobody asked for: the stream cannot be trusted any more.
      this.fail(new CatFileExitedError(null, 'unexpected output from git cat-file'));
      this.child.kill('SIGKILL');
      return;
    }
    request.results.push(object);
    if (request.results.length < request.count) return;
    this.pending.shift();
    if (this.pending.length === 0) setReferenced(this.child, false);
    request.resolve(request.results);
  }

  private fail(error: Error): void {
    this.exited = true;
    const pending = this.pending.splice(0);
    setReferenced(this.child, false);
    for (const request of pending) request.reject(error);
  }
}

export class CatFileReader {
  private readonly pool: ProcessPool<CatFileProcess>;

  constructor(
    command: (path: string) => { args: string[]; env: NodeJS.ProcessEnv },
    options: ProcessPoolOptions,
  ) {
    this.pool = new ProcessPool((path) => {
      const { args, env } = command(path);
      return new CatFileProcess(args, env);
    }, options);
  }

  /** Reads objects by name (`<sha>`, `<ref>^{commit}`, `<tree>:<path>`…) from the repository at `path`. */
  async read(path: string, lines: readonly string[]): Promise<(BatchObject | null)[]> {
    try {
      return await this.pool.get(path).request(lines);
    } catch (error) {
      if (!(error instanceof CatFileExitedError)) throw error;
      return await this.pool.get(path).request(lines);
    }
  }

  processId(path: string): number | undefined {
    return this.pool.processId(path);
  }

  closeAll(): void {
    this.pool.closeAll();
  }
}
