// The built executable runs the one-file build of the server (`dist/server.cjs`, scripts/bundle.mjs) with a V8
// code cache: the bytecode of every function the server compiled from its start to its first answer, kept in
// `dist/.code-cache/`. (Not later: V8 drops the bytecode of functions that have not run for a while, those of
// the start among them, and a cache holds only the bytecode there is.) A start that finds it skips most of the parsing and compiling of megabytes of
// JavaScript, which is much of what a start costs. Node.js 20 has no compile cache of its own for ES modules
// (`module.enableCompileCache` came with 22.1), so the bundle is a CommonJS script run through `vm.Script`,
// which takes and makes V8's cache (`cachedData`, `createCachedData`).
//
// V8 checks a cache against its own version and flags, not against the text of the script: the file's name
// carries the build's hash (the bundle's first line), the Node.js version and its flags, so that a rebuild or
// other flags read another file. A cache that cannot be read or written only costs the time it would save:
// the server starts without it.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** Emitted on `process` by the server once it has answered its first request (src/main.ts). */
export const FIRST_ANSWER_EVENT = 'collab-server:first-answer';

/** Tells the code cache that the server has answered its first request: the moment to save the cache. */
export function announceFirstAnswer(): void {
  (process as NodeJS.EventEmitter).emit(FIRST_ANSWER_EVENT);
}

/** The build's hash, from the bundle's first line (`// ... build <hash>`); undefined for another file. */
export function buildHashOf(source: string): string | undefined {
  const firstLine = source.slice(0, source.indexOf('\n'));
  return /^\/\/ .* build ([0-9a-f]{16,})$/.exec(firstLine)?.[1];
}

/** The cache file's name: one per build, Node.js version, architecture and set of Node.js flags. */
export function cacheFileName(
  buildHash: string,
  nodeVersion: string,
  arch: string,
  execArgv: string[],
): string {
  const runtime = createHash('sha256')
    .update([nodeVersion, arch, ...execArgv].join('\0'))
    .digest('hex');
  return `${buildHash.slice(0, 16)}-${runtime.slice(0, 16)}.bin`;
}

export type CodeCacheUse = 'used' | 'made' | 'none';

/**
 * Runs a CommonJS script as Node.js runs a module (its own `require`, `module`, `__filename`), with the code
 * cache of its build when there is one; without one (or with one V8 refused), makes it once the server has
 * answered its first request, or at its exit if that comes first. Answers what it did: `used` a cache, `made` one
 * (will make), or `none` (a script without a build hash).
 */
export function runWithCodeCache(file: string): CodeCacheUse {
  // The first line (the hashbang of the entry or the build's header) stays, as a comment, so that the line
  // numbers of stack traces and of the source map hold.
  const source = textOf(readFileSync(file));
  const buildHash = buildHashOf(source);
  const cacheFile = buildHash
    ? join(
        dirname(file),
        '.code-cache',
        cacheFileName(buildHash, process.version, process.arch, process.execArgv),
      )
    : undefined;
  const cachedData = cacheFile ? readIfPresent(cacheFile) : undefined;
  // Strict, as the ES modules it was bundled from are (esbuild's own "use strict" comes after the banner).
  const wrapped = `(function (exports, require, module, __filename, __dirname) {"use strict";${source}\n})`;
  const script = new Script(wrapped, {
    filename: file,
    cachedData,
  });
  let use: CodeCacheUse = 'none';
  if (cacheFile && cachedData && !script.cachedDataRejected) use = 'used';
  else if (cacheFile) {
    use = 'made';
    saveAfterFirstAnswerOrAtExit(script, cacheFile);
  }
  const run = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: object },
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {} };
  run(module.exports, createRequire(file), module, file, dirname(file));
  return use;
}

function saveAfterFirstAnswerOrAtExit(script: Script, cacheFile: string): void {
  let saved = false;
  const save = (): void => {
    if (saved) return;
    saved = true;
    // Written whole under another name and renamed: processes starting meanwhile (workers) read a whole
    // file or none.
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(cacheFile), { recursive: true });
      writeFileSync(temporary, script.createCachedData());
      renameSync(temporary, cacheFile);
    } catch {
      // A read-only installation: every start compiles, as it would without the cache.
    }
  };
  (process as NodeJS.EventEmitter).once(FIRST_ANSWER_EVENT, save);
  process.once('exit', save);
}

/**
 * The file's text. The build is ASCII (esbuild escapes the rest), and ASCII read as latin1 is the same text at a
 * fraction of the cost of decoding UTF-8 (a few milliseconds of every start for the 3 MB bundle).
 */
export function textOf(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
