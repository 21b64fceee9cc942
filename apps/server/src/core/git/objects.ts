/**
 * Git objects written in-process, byte for byte as git writes them, so that SHAs stay git's own.
 *
 * A loose object is `<type> <size>\0<content>`, named by the SHA-1 of those bytes and stored zlib-deflated
 * at objects/<2 hex>/<38 hex>. Trees and commits are encoded here exactly as `write-tree` and `commit-tree`
 * (git 2.39) encode them, including their normalisations (canonical modes, identity "crud" stripping,
 * Latin-1 → UTF-8 repair of the commit buffer) and the path rules of `update-index` (verify_path), so that
 * an edit built here gives the SHAs and failures the plumbing commands gave.
 */

import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate as deflateCallback, deflateSync } from 'node:zlib';

const deflate = promisify(deflateCallback);

export type ObjectType = 'blob' | 'tree' | 'commit';

export interface EncodedObject {
  id: string;
  type: ObjectType;
  /** The uncompressed object: header and content. */
  raw: Buffer;
}

/** `<type> <size>\0<content>` and its SHA-1. */
export function encodeObject(type: ObjectType, content: Buffer): EncodedObject {
  const raw = Buffer.concat([Buffer.from(`${type} ${content.length}\0`, 'latin1'), content]);
  return { id: createHash('sha1').update(raw).digest('hex'), type, raw };
}

/** git's default core.looseCompression (best speed); the compression level does not change the SHA. */
const LOOSE_COMPRESSION = 1;
/** Objects up to this size are deflated with a window of the same size (2 ** 12 bytes). */
const SMALL_WINDOW_LIMIT = 4096;
/** Objects larger than this are deflated and written on the thread pool instead of the main thread. */
const SYNC_DEFLATE_LIMIT = 64 * 1024;

/**
 * Stores an object as a loose object unless it is already there. Written to a temporary file in its fan-out
 * directory, then renamed into place, so readers never see a partial object; the name `tmp_obj_*` is the
 * one git uses, so `git gc`/`prune` remove leftovers of a crash and `fsck` ignores them. An object already
 * present is only freshened (as git does), so a concurrent prune of unreachable objects keeps it.
 *
 * A small object (every tree and commit, most blobs) is written with synchronous calls, as git writes it:
 * a handful of system calls on the page cache, where each asynchronous one would be a round trip through
 * the thread pool (and, on a busy machine, a wait for the event loop to be scheduled again).
 */
export async function writeLooseObject(objectsDir: string, object: EncodedObject): Promise<void> {
  if (object.raw.length <= SYNC_DEFLATE_LIMIT) {
    writeLooseObjectSync(objectsDir, object);
    return;
  }
  const dir = join(objectsDir, object.id.slice(0, 2));
  const file = join(dir, object.id.slice(2));
  if (
    await stat(file).then(
      () => true,
      () => false,
    )
  ) {
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined);
    return;
  }
  const compressed = await deflate(object.raw, { level: LOOSE_COMPRESSION });
  await mkdir(dir, { recursive: true });
  const temporary = join(dir, temporaryName());
  try {
    await writeFile(temporary, compressed, { mode: 0o444, flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * A temporary object file's name, unique among the processes and instances that share the repositories: a
 * random prefix drawn once per process and a counter (a random draw per object cost more than the rest of
 * the name). The file is created exclusively (`wx`), so a clash could only fail a write, never mix two.
 */
function temporaryName(): string {
  temporaryCount += 1;
  return `tmp_obj_${TEMPORARY_PREFIX}${temporaryCount.toString(36)}`;
}
const TEMPORARY_PREFIX = randomBytes(6).toString('hex');
let temporaryCount = 0;

/** writeLooseObject for a small object, in the same steps. */
function writeLooseObjectSync(objectsDir: string, object: EncodedObject): void {
  const dir = join(objectsDir, object.id.slice(0, 2));
  const file = join(dir, object.id.slice(2));
  if (existsSync(file)) {
    const now = new Date();
    try {
      utimesSync(file, now, now);
    } catch {
      // Read-only or just pruned: the object was there, which is what matters to the commit.
    }
    return;
  }
  const compressed = deflateSync(object.raw, {
    level: LOOSE_COMPRESSION,
    // A window no larger than the object compresses it as well, and zlib sets a small one up much faster
    // (most of a small object's deflate time is the set-up).
    ...(object.raw.length <= SMALL_WINDOW_LIMIT ? { windowBits: 12, memLevel: 5 } : {}),
  });
  const temporary = join(dir, temporaryName());
  try {
    try {
      writeFileSync(temporary, compressed, { mode: 0o444, flag: 'wx' });
    } catch (error) {
      // The fan-out directory is made when its first object comes (and prune removes it when emptied):
      // made then, not looked for before every object.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dir, { recursive: true });
      writeFileSync(temporary, compressed, { mode: 0o444, flag: 'wx' });
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* Trees                                                                                             */
/* ------------------------------------------------------------------------------------------------ */

export const EMPTY_TREE_ID = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export const MODE_TREE = 0o040000;
export const MODE_FILE = 0o100644;
export const MODE_EXECUTABLE = 0o100755;
export const MODE_SYMLINK = 0o120000;
export const MODE_GITLINK = 0o160000;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

export interface TreeEntry {
  /** Raw bytes of the name (not necessarily UTF-8). */
  name: Buffer;
  /** Canonical mode: 100644, 100755, 120000, 40000 or 160000 (octal). */
  mode: number;
  id: string;
}

/** git's canon_mode(): what the index (and so write-tree) makes of any mode found in a tree. */
export function canonicalMode(mode: number): number {
  switch (mode & S_IFMT) {
    case S_IFREG:
      return mode & 0o100 ? MODE_EXECUTABLE : MODE_FILE;
    case MODE_SYMLINK:
      return MODE_SYMLINK;
    case MODE_TREE:
      return MODE_TREE;
    default:
      return MODE_GITLINK;
  }
}

export function entryType(mode: number): ObjectType {
  return mode === MODE_TREE ? 'tree' : mode === MODE_GITLINK ? 'commit' : 'blob';
}

/** Entries of a raw tree object ("<octal mode> <name>\0<20-byte id>" each), modes canonicalised. */
export function parseTree(content: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let offset = 0;
  while (offset < content.length) {
    const space = content.indexOf(0x20, offset);
    const nul = space < 0 ? -1 : content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > content.length) throw new Error('malformed tree object');
    entries.push({
      name: content.subarray(space + 1, nul),
      mode: canonicalMode(Number.parseInt(content.subarray(offset, space).toString('latin1'), 8)),
      id: content.subarray(nul + 1, nul + 21).toString('hex'),
    });
    offset = nul + 21;
  }
  return entries;
}

/** git's base_name_compare(): a directory sorts as if its name ended with `/`. */
export function compareTreeEntries(a: TreeEntry, b: TreeEntry): number {
  const length = Math.min(a.name.length, b.name.length);
  const common = a.name.subarray(0, length).compare(b.name.subarray(0, length));
  if (common !== 0) return common;
  const nextA = a.name.length > length ? (a.name[length] ?? 0) : a.mode === MODE_TREE ? 0x2f : 0;
  const nextB = b.name.length > length ? (b.name[length] ?? 0) : b.mode === MODE_TREE ? 0x2f : 0;
  return nextA - nextB;
}

/** A tree object's content from its entries, sorted the git way. */
export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const sorted = [...entries].sort(compareTreeEntries);
  const parts: Buffer[] = [];
  for (const entry of sorted) {
    parts.push(Buffer.from(`${entry.mode.toString(8)} `, 'latin1'), entry.name, Buffer.from([0]));
    parts.push(Buffer.from(entry.id, 'hex'));
  }
  return Buffer.concat(parts);
}

/* ------------------------------------------------------------------------------------------------ */
/* Paths: update-index's verify_path() with git 2.39's defaults on Linux (core.protectNTFS on,       */
/* core.protectHFS off). checkFilePath() in repository.ts already refuses `.`, `..`, `.git` and      */
/* empty segments; this adds the NTFS aliases of `.git` and, for symlinks, of `.gitmodules`.         */
/* ------------------------------------------------------------------------------------------------ */

const lower = (c: number): number => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c);

/** strncasecmp(bytes + at, needle, n) === 0 (a NUL, i.e. the end, never matches a needle byte). */
function startsWithIgnoreCase(bytes: Buffer, at: number, needle: string, n = needle.length): boolean {
  for (let i = 0; i < n; i += 1) {
    if (lower(bytes[at + i] ?? 0) !== needle.charCodeAt(i)) return false;
  }
  return true;
}

/** is_ntfs_dotgit(): `.git` or `git~1`, then only spaces and dots up to the end, a separator or `:`. */
function isNtfsDotGit(bytes: Buffer, at: number): boolean {
  let i = at;
  if (bytes[i] === 0x2e) {
    if (!startsWithIgnoreCase(bytes, i + 1, 'git')) return false;
    i += 4;
  } else if (startsWithIgnoreCase(bytes, i, 'git') && bytes[i + 3] === 0x7e && bytes[i + 4] === 0x31) {
    i += 5;
  } else {
    return false;
  }
  for (;;) {
    const c = bytes[i++] ?? 0;
    if (c === 0 || c === 0x5c || c === 0x2f || c === 0x3a) return true;
    if (c !== 0x2e && c !== 0x20) return false;
  }
}

/** is_ntfs_dotgitmodules(), i.e. is_ntfs_dot_generic(name, "gitmodules", 10, "gi7eba"). */
function isNtfsDotGitmodules(bytes: Buffer, at: number): boolean {
  const onlySpacesAndPeriods = (from: number): boolean => {
    let i = from;
    for (;;) {
      const c = bytes[at + i++] ?? 0;
      if (c === 0 || c === 0x3a) return true;
      if (c !== 0x20 && c !== 0x2e) return false;
    }
  };
  if (bytes[at] === 0x2e && startsWithIgnoreCase(bytes, at + 1, 'gitmodules'))
    return onlySpacesAndPeriods(11);
  const seventh = bytes[at + 7] ?? 0;
  if (
    startsWithIgnoreCase(bytes, at, 'gitmod', 6) &&
    bytes[at + 6] === 0x7e &&
    seventh >= 0x31 &&
    seventh <= 0x34
  )
    return onlySpacesAndPeriods(8);
  const prefix = 'gi7eba';
  let sawTilde = false;
  let i = 0;
  for (; i < 8; i += 1) {
    const c = bytes[at + i] ?? 0;
    if (c === 0) return false;
    if (sawTilde) {
      if (c < 0x30 || c > 0x39) return false;
    } else if (c === 0x7e) {
      i += 1;
      const d = bytes[at + i] ?? 0;
      if (d < 0x31 || d > 0x39) return false;
      sawTilde = true;
    } else if (i >= 6) {
      return false;
    } else if (c & 0x80) {
      return false;
    } else if (lower(c) !== prefix.charCodeAt(i)) {
      return false;
    }
  }
  // A tilde in the last position leaves `i` at 9, as in git.
  return onlySpacesAndPeriods(i);
}

/** verify_dotfile(): the segment after a leading `.` at `at`. */
function verifyDotfile(bytes: Buffer, at: number, symlink: boolean): boolean {
  const c = bytes[at] ?? 0;
  if (c === 0 || c === 0x2f) return false;
  if (c === 0x67 || c === 0x47) {
    if (lower(bytes[at + 1] ?? 0) !== 0x69 || lower(bytes[at + 2] ?? 0) !== 0x74) return true;
    const after = bytes[at + 3] ?? 0;
    if (after === 0 || after === 0x2f) return false;
    if (symlink && startsWithIgnoreCase(bytes, at + 3, 'modules')) {
      const end = bytes[at + 10] ?? 0;
      if (end === 0 || end === 0x2f) return false;
    }
  } else if (c === 0x2e) {
    const next = bytes[at + 1] ?? 0;
    if (next === 0 || next === 0x2f) return false;
  }
  return true;
}

/** Whether `git update-index` accepts `path` for an entry of `mode` (git's verify_path()). */
export function verifyPath(path: string, mode: number): boolean {
  const bytes = Buffer.from(path, 'utf8');
  if (bytes.includes(0)) return false;
  const symlink = mode === MODE_SYMLINK;
  let i = 0;
  // At the start of each segment: NTFS aliases, then dotfiles and empty segments.
  let segmentStart = true;
  for (;;) {
    if (segmentStart) {
      if (isNtfsDotGit(bytes, i)) return false;
      if (symlink && isNtfsDotGitmodules(bytes, i)) return false;
      const c = bytes[i] ?? 0;
      i += 1;
      if ((c === 0x2e && !verifyDotfile(bytes, i, symlink)) || c === 0x2f || c === 0) return false;
      segmentStart = false;
    }
    const c = bytes[i] ?? 0;
    if (c === 0) return true;
    if (c === 0x2f) {
      i += 1;
      segmentStart = true;
      continue;
    }
    if (c === 0x5c) {
      if (isNtfsDotGit(bytes, i + 1)) return false;
      if (symlink && isNtfsDotGitmodules(bytes, i + 1)) return false;
    }
    i += 1;
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* Commits: what `git commit-tree` (IDENT_STRICT, no config) writes                                 */
/* ------------------------------------------------------------------------------------------------ */

export interface CommitIdentity {
  name: string;
  email: string;
}

export interface CommitDate {
  /** Unix seconds. */
  seconds: number;
  /** Minutes east of UTC. */
  offsetMinutes: number;
}

export interface CommitFields {
  tree: string;
  parents: readonly string[];
  author: CommitIdentity;
  committer: CommitIdentity;
  message: string;
  date: CommitDate;
}

/** Raised where commit-tree would have failed: the caller reports it as commit-tree's failure. */
export class CommitFormatError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'CommitFormatError';
  }
}

/** The current time as git's datestamp() gives it: seconds and the local UTC offset. */
export function currentCommitDate(now = new Date()): CommitDate {
  return { seconds: Math.floor(now.getTime() / 1000), offsetMinutes: -now.getTimezoneOffset() };
}

/** `<seconds> <+hhmm>` as date_string() prints it. */
function formatDate(date: CommitDate): string {
  const sign = date.offsetMinutes < 0 ? '-' : '+';
  const offset = Math.abs(date.offsetMinutes);
  const hh = String(Math.trunc(offset / 60)).padStart(2, '0');
  const mm = String(offset % 60).padStart(2, '0');
  return `${date.seconds} ${sign}${hh}${mm}`;
}

/** ident.c's crud(): bytes stripped from both ends of names and emails. */
function isCrud(c: number): boolean {
  return (
    c <= 32 ||
    c === 0x2e || // .
    c === 0x2c || // ,
    c === 0x3a || // :
    c === 0x3b || // ;
    c === 0x3c || // <
    c === 0x3e || // >
    c === 0x22 || // "
    c === 0x5c || // \
    c === 0x27 // '
  );
}

/** strbuf_addstr_without_crud(): crud trimmed at both ends, `\n`, `<` and `>` dropped inside. */
function withoutCrud(value: Buffer): Buffer {
  let start = 0;
  let end = value.length;
  while (start < end && isCrud(value[start] ?? 0)) start += 1;
  while (end > start && isCrud(value[end - 1] ?? 0)) end -= 1;
  const kept: number[] = [];
  for (let i = start; i < end; i += 1) {
    const c = value[i] ?? 0;
    if (c !== 0x0a && c !== 0x3c && c !== 0x3e) kept.push(c);
  }
  return Buffer.from(kept);
}

/** fmt_ident(name, email, date, IDENT_STRICT): `Name <email> <seconds> <tz>`, or the error git dies with. */
function formatIdent(identity: CommitIdentity, date: CommitDate): Buffer {
  // The identities went to git through the environment, where a NUL cannot be passed.
  if (identity.name.includes('\0') || identity.email.includes('\0'))
    throw new CommitFormatError(128, 'identity contains a NUL character');
  const name = Buffer.from(identity.name, 'utf8');
  const email = Buffer.from(identity.email, 'utf8');
  if (name.length === 0)
    throw new CommitFormatError(128, `fatal: empty ident name (for <${identity.email}>) not allowed`);
  if (name.every(isCrud))
    throw new CommitFormatError(128, `fatal: name consists only of disallowed characters: ${identity.name}`);
  return Buffer.concat([
    withoutCrud(name),
    Buffer.from(' <'),
    withoutCrud(email),
    Buffer.from(`> ${formatDate(date)}`),
  ]);
}

const MAX_CODEPOINT = [0x7f, 0x7ff, 0xffff, 0x10ffff];

/** find_invalid_utf8() for the sequence starting at `at`: its length when valid, else 0. */
function validSequenceLength(buffer: Buffer, at: number): number {
  let c = buffer[at] ?? 0;
  if (c < 0x80) return 1;
  let bytes = 0;
  while (c & 0x40) {
    c = (c << 1) & 0xff;
    bytes += 1;
  }
  if (bytes < 1 || bytes > 3) return 0;
  if (buffer.length - at - 1 < bytes) return 0;
  let codepoint = (c & 0x7f) >> bytes;
  const min = (MAX_CODEPOINT[bytes - 1] ?? 0) + 1;
  const max = MAX_CODEPOINT[bytes] ?? 0;
  for (let i = 1; i <= bytes; i += 1) {
    const next = buffer[at + i] ?? 0;
    codepoint = (codepoint << 6) | (next & 0x3f);
    if ((next & 0xc0) !== 0x80) return 0;
  }
  if (codepoint < min || codepoint > max) return 0;
  if ((codepoint & 0x1ff800) === 0xd800) return 0; // surrogates
  if ((codepoint & 0xfffe) === 0xfffe) return 0; // U+xxFFFE, U+xxFFFF
  if (codepoint >= 0xfdd0 && codepoint <= 0xfdef) return 0; // more non-characters
  return bytes + 1;
}

/**
 * commit.c's verify_utf8(): every byte that does not start a valid (by git's rules) UTF-8 sequence is
 * taken as Latin-1 and re-encoded. JavaScript strings encode to valid UTF-8, but git also refuses the
 * Unicode non-characters (U+FFFE, U+FDD0…), which it rewrites this way.
 */
export function ensureUtf8(buffer: Buffer): Buffer {
  let at = 0;
  while (at < buffer.length) {
    const length = validSequenceLength(buffer, at);
    if (length === 0) break;
    at += length;
  }
  if (at >= buffer.length) return buffer;
  const out: number[] = [...buffer.subarray(0, at)];
  while (at < buffer.length) {
    const length = validSequenceLength(buffer, at);
    if (length === 0) {
      const c = buffer[at] ?? 0;
      out.push(0xc0 + (c >> 6), 0x80 + (c & 0x3f));
      at += 1;
    } else {
      for (let i = 0; i < length; i += 1) out.push(buffer[at + i] ?? 0);
      at += length;
    }
  }
  return Buffer.from(out);
}

/** The content of the commit object `git commit-tree <tree> -p <parent>… < message` writes. */
export function commitContent(fields: CommitFields): Buffer {
  const message = Buffer.from(fields.message, 'utf8');
  if (message.includes(0))
    throw new CommitFormatError(1, 'error: a NUL byte in commit log message not allowed.');
  const author = formatIdent(fields.author, fields.date);
  const committer = formatIdent(fields.committer, fields.date);
  const headers = [`tree ${fields.tree}\n`, ...fields.parents.map((parent) => `parent ${parent}\n`)].join('');
  return ensureUtf8(
    Buffer.concat([
      Buffer.from(`${headers}author `, 'latin1'),
      author,
      Buffer.from('\ncommitter '),
      committer,
      Buffer.from('\n\n'),
      message,
    ]),
  );
}
