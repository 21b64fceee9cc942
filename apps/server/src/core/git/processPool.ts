/**
 * Long-running git processes, at most one per repository path and kind, so that reading objects or
 * updating a ref costs a pipe round trip instead of a process spawn (a fork of the whole server).
 *
 * A process is closed after `idleMs` without use, when the pool is full (the least recently used one),
 * when the repository directory is replaced (another inode or birth time; not the change time, which
 * every ref update of the branch HEAD names changes through HEAD.lock), and on exit. One that died is
 * replaced on the next use: callers decide whether what they asked of it can be asked again.
 */

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Socket } from 'node:net';
import { gitPath } from './gitPath.js';

export interface PooledProcess {
  readonly pid: number | undefined;
  /** Whether the process can take requests. */
  readonly alive: boolean;
  /** Whether requests are being answered (an idle timeout then waits). */
  readonly busy: boolean;
  /** Graceful: ends the input, the process answers what it read and exits. */
  close(): void;
  /** When the server exits (only synchronous work is possible then). */
  exit(): void;
}

export interface ProcessPoolOptions {
  idleMs: number;
  maxProcesses: number;
}

interface PoolEntry<P> {
  process: P;
  identity: string;
  idleTimer: NodeJS.Timeout | undefined;
}

export class ProcessPool<P extends PooledProcess> {
  /** In least-recently-used order. */
  private readonly entries = new Map<string, PoolEntry<P>>();
  private exitHookInstalled = false;

  constructor(
    private readonly create: (path: string) => P,
    private readonly options: ProcessPoolOptions,
  ) {}

  /** The live process for the repository at `path`, started if needed; marks it as just used. */
  get(path: string): P {
    const stats = statSync(path, { throwIfNoEntry: false });
    const identity = stats ? `${stats.dev}:${stats.ino}:${stats.birthtimeMs}` : 'missing';
    let entry = this.entries.get(path);
    if (entry && (!entry.process.alive || entry.identity !== identity)) {
      this.remove(path);
      entry = undefined;
    }
    if (entry) {
      this.entries.delete(path); // re-inserted below as the most recently used
    } else {
      this.installExitHook();
      while (this.entries.size >= this.options.maxProcesses) {
        const oldest = this.entries.keys().next().value;
        if (oldest === undefined) break;
        this.remove(oldest);
      }
      entry = { process: this.create(path), identity, idleTimer: undefined };
    }
    this.entries.set(path, entry);
    this.scheduleIdleClose(path, entry);
    return entry.process;
  }

  /** The pid of the live process for `path`, if any (for tests and diagnostics). */
  processId(path: string): number | undefined {
    const process = this.entries.get(path)?.process;
    return process?.alive ? process.pid : undefined;
  }

  closeAll(): void {
    for (const path of [...this.entries.keys()]) this.remove(path);
  }

  private scheduleIdleClose(path: string, entry: PoolEntry<P>): void {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      if (this.entries.get(path) !== entry) return;
      if (entry.process.busy) this.scheduleIdleClose(path, entry);
      else this.remove(path);
    }, this.options.idleMs);
    entry.idleTimer.unref();
  }

  private remove(path: string): void {
    const entry = this.entries.get(path);
    if (!entry) return;
    this.entries.delete(path);
    clearTimeout(entry.idleTimer);
    entry.process.close();
  }

  private installExitHook(): void {
    if (this.exitHookInstalled) return;
    this.exitHookInstalled = true;
    process.once('exit', () => {
      for (const entry of this.entries.values()) entry.process.exit();
      this.entries.clear();
    });
  }
}

/** Spawns a git process whose three pipes stay open, and lets it (un)reference the event loop. */
export function spawnPiped(args: string[], env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  const child = spawn(gitPath(), args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  // Writes after an exit fail with EPIPE: the owner learns of the exit from the 'close' event.
  child.stdin.on('error', () => undefined);
  return child;
}

/**
 * While idle, a pooled process must not keep the server (or a script, or a test run) alive; while it works
 * for a caller, it must.
 */
export function setReferenced(child: ChildProcessWithoutNullStreams, referenced: boolean): void {
  // The pipes are net.Sockets, which (unlike the stream types they are declared as) can be unreferenced.
  const pipes = [child.stdin, child.stdout, child.stderr] as unknown as Socket[];
  for (const target of [child, ...pipes]) {
    if (referenced) target.ref();
    else target.unref();
  }
}
