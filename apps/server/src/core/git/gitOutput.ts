/**
 * Reading git's machine-readable output: NUL-separated records of `for-each-ref` and `log` formats, the
 * dates they print, `cat-file --batch` output, and the stderr of a command that failed because something
 * does not exist.
 */

import type { BranchInfo } from './commitInfo.js';

export const ZERO_OID = '0'.repeat(40);

export const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * Splits output written with a format of `fieldCount` NUL-terminated fields per record (git appends a
 * newline after each record). NUL cannot occur inside commit messages or ref names, so this is safe
 * where any printable separator could be forged by a commit message.
 */
export function parseRecords(output: Buffer, fieldCount: number): string[][] {
  const tokens = output.toString('utf8').split('\0');
  const records: string[][] = [];
  for (let i = 0; i + fieldCount <= tokens.length; i += fieldCount) {
    const record = tokens.slice(i, i + fieldCount);
    // The record terminator ("\n") of the previous record lands at the start of this one.
    if (record[0] !== undefined) record[0] = record[0].replace(/^\n/, '');
    records.push(record);
  }
  return records;
}

/** `<a@b>` → `a@b` (for-each-ref's :trim modifier is newer than some gits we may meet). */
function stripAngles(email: string): string {
  return email.replace(/^<(.*)>$/, '$1');
}

/** git's iso-strict (`2026-01-15T10:00:00+00:00` or `…Z`) → `2026-01-15T10:00:00.000+00:00`. */
function isoWithOffset(date: string): string {
  const match = /^(.*T\d\d:\d\d:\d\d)(Z|[+-]\d\d:\d\d)$/.exec(date);
  if (!match) return date;
  const offset = match[2] === 'Z' ? '+00:00' : (match[2] ?? '+00:00');
  return `${match[1]}.000${offset}`;
}

export function isoUtc(date: string): string {
  return new Date(date).toISOString();
}

export const BRANCH_FIELDS = [
  '%(refname)',
  '%(objectname)',
  '%(parent)',
  '%(authorname)',
  '%(authoremail)',
  '%(authordate:iso-strict)',
  '%(committername)',
  '%(committeremail)',
  '%(committerdate:iso-strict)',
  '%(contents)',
];

export const BRANCH_FORMAT = BRANCH_FIELDS.map((field) => `${field}%00`).join('');

export function toBranchInfo(record: string[]): BranchInfo {
  const [
    ref = '',
    id = '',
    parents = '',
    an = '',
    ae = '',
    ad = '',
    cn = '',
    ce = '',
    cd = '',
    message = '',
  ] = record;
  return {
    name: ref.replace(/^refs\/heads\//, ''),
    commit: {
      id,
      short_id: id.slice(0, 8),
      title: message.split('\n', 1)[0] ?? '',
      message,
      author_name: an,
      author_email: stripAngles(ae),
      authored_date: isoWithOffset(ad),
      committer_name: cn,
      committer_email: stripAngles(ce),
      committed_date: isoWithOffset(cd),
      parent_ids: parents.split(' ').filter((p) => p.length > 0),
    },
  };
}

/** toBranchInfo's fields from `git log` (no ref name: the first field stays empty). */
export const RANGE_COMMIT_FIELDS = ['', '%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'];

export const RANGE_COMMIT_FORMAT = RANGE_COMMIT_FIELDS.map((field) => `${field}%x00`).join('');

export const BLAME_COMMIT_FIELDS = ['%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'];

export const BLAME_COMMIT_FORMAT = BLAME_COMMIT_FIELDS.map((field) => `${field}%x00`).join('');

/** stderr of commands that failed because a ref, object or path does not exist. */
export const MISSING =
  /no such path|bad revision|unknown revision|ambiguous argument|not a valid|invalid object|bad object|does not exist|not a tree|not a blob|is a directory|needed a single revision/i;

/** Parses `cat-file --batch` output: "<sha> <type> <size>\n<content>\n" or "<name> missing\n" per input. */
export function parseBatchOutput(output: Buffer): ({ id: string; type: string; content: Buffer } | null)[] {
  const objects: ({ id: string; type: string; content: Buffer } | null)[] = [];
  let offset = 0;
  while (offset < output.length) {
    const newline = output.indexOf(0x0a, offset);
    if (newline < 0) break;
    const header = output.subarray(offset, newline).toString('utf8');
    const match = /^([0-9a-f]{40}) (\w+) (\d+)$/.exec(header);
    if (!match) {
      objects.push(null); // "<name> missing" or "<name> ambiguous"
      offset = newline + 1;
      continue;
    }
    const size = Number(match[3]);
    const start = newline + 1;
    objects.push({ id: match[1] ?? '', type: match[2] ?? '', content: output.subarray(start, start + size) });
    offset = start + size + 1;
  }
  return objects;
}
