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

import type { ProcessPoolOptions } from './processPool.js';
import { type PendingRequest, RequestPipePool, RequestPipeProcess } from './requestPipe.js';

const OBJECT_ID = /^[0-9a-f]{40}$/;

interface Pending extends PendingRequest<Buffer> {
  to: string;
}

export class DiffTreeProcess extends RequestPipeProcess<Pending> {
  private buffered: Buffer = Buffer.alloc(0);

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    super('git diff-tree --stdin', args, env);
  }

  /** The patch from commit `from` to commit `to` (both full SHAs of commits of this repository). */
  diff(from: string, to: string): Promise<Buffer> {
    if (!OBJECT_ID.test(from) || !OBJECT_ID.test(to)) return Promise.reject(new Error('invalid commit id'));
    return new Promise((resolve, reject) => {
      this.send({ to, resolve, reject }, `${to} ${from}\n${to} ${to}\n`);
    });
  }

  protected receive(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const request = this.pending[0];
      if (!request) {
        if (this.buffered.length > 0) this.unexpectedOutput();
        return;
      }
      const header = Buffer.from(`${request.to}\n`);
      if (this.buffered.length < header.length) return;
      if (!this.buffered.subarray(0, header.length).equals(header)) {
        this.unexpectedOutput();
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
      this.takeFirst();
      request.resolve(patch);
    }
  }
}

export class DiffTreeReader {
  private readonly pool: RequestPipePool<DiffTreeProcess>;

  constructor(
    command: (path: string) => { args: string[]; env: NodeJS.ProcessEnv },
    options: ProcessPoolOptions,
  ) {
    this.pool = new RequestPipePool((args, env) => new DiffTreeProcess(args, env), command, options);
  }

  /** The patch from commit `from` to commit `to` in the repository at `path`. */
  diff(path: string, from: string, to: string): Promise<Buffer> {
    return this.pool.ask(path, (process) => process.diff(from, to));
  }

  processId(path: string): number | undefined {
    return this.pool.processId(path);
  }
}
