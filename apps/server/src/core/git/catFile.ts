/**
 * `git cat-file --batch` kept running per repository (see processPool.ts).
 *
 * Requests to one process are written whole and answered in order (cat-file reads its input line by line
 * and answers each line before reading on), so concurrent callers simply queue. A request that a dying
 * process took down with it is retried once on a fresh process: reads can be repeated. A process that
 * outlived a replacement of its repository directory would still answer correctly (refs and loose objects
 * are looked up by path on every request, and an object read by SHA is the same object anywhere).
 */

import type { ProcessPoolOptions } from './processPool.js';
import { type PendingRequest, RequestPipePool, RequestPipeProcess } from './requestPipe.js';

export interface BatchObject {
  id: string;
  type: string;
  content: Buffer;
}

interface Pending extends PendingRequest<(BatchObject | null)[]> {
  results: (BatchObject | null)[];
  count: number;
}

const HEADER = /^([0-9a-f]{40}) (\w+) (\d+)$/;

export class CatFileProcess extends RequestPipeProcess<Pending> {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Header of the object whose content is being received, if any. */
  private current: { id: string; type: string; size: number } | null = null;

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    super('git cat-file --batch', args, env);
  }

  /** One result per line, in order: the object, or null when the name does not resolve. */
  request(lines: readonly string[]): Promise<(BatchObject | null)[]> {
    if (lines.some((line) => /[\n\0]/.test(line))) return Promise.reject(new Error('invalid object name'));
    if (lines.length === 0 && this.alive) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.send({ results: [], count: lines.length, resolve, reject }, `${lines.join('\n')}\n`);
    });
  }

  protected receive(chunk: Buffer): void {
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
      if (this.hasExited) return;
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
      this.unexpectedOutput();
      return;
    }
    request.results.push(object);
    if (request.results.length < request.count) return;
    this.takeFirst()?.resolve(request.results);
  }
}

export class CatFileReader {
  private readonly pool: RequestPipePool<CatFileProcess>;

  constructor(
    command: (path: string) => { args: string[]; env: NodeJS.ProcessEnv },
    options: ProcessPoolOptions,
  ) {
    this.pool = new RequestPipePool((args, env) => new CatFileProcess(args, env), command, options);
  }

  /** Reads objects by name (`<sha>`, `<ref>^{commit}`, `<tree>:<path>`…) from the repository at `path`. */
  read(path: string, lines: readonly string[]): Promise<(BatchObject | null)[]> {
    return this.pool.ask(path, (process) => process.request(lines));
  }

  processId(path: string): number | undefined {
    return this.pool.processId(path);
  }

  closeAll(): void {
    this.pool.closeAll();
  }
}
