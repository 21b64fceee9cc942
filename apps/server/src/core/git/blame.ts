/** Blame: which commit last changed each line of a file (`blame --porcelain`, then one `log` for the commits). */

import { BLAME_COMMIT_FIELDS, BLAME_COMMIT_FORMAT, isoUtc, MISSING, parseRecords } from './gitOutput.js';
import { type GitDir, GitError } from './gitProcess.js';
import { checkFilePath, isSafeRevision } from './names.js';
import { repositoryReadCache } from './readCache.js';

export interface BlameCommit {
  id: string;
  message: string;
  parent_ids: string[];
  /** ISO 8601 in UTC with milliseconds, e.g. `2026-01-15T10:00:00.000Z`. */
  authored_date: string;
  author_name: string;
  author_email: string;
  committed_date: string;
  committer_name: string;
  committer_email: string;
}

export interface BlameRange {
  commit: BlameCommit;
  lines: string[];
}

/**
 * Line ranges of `filePath` at `ref`, each with the commit that last changed them; consecutive lines of
 * one commit form one range. `blame --porcelain` gives the line → commit map, one `log --no-walk` call
 * gives full messages and parents for all commits at once. Null when the ref or path does not exist.
 */
export async function blame(repo: GitDir, ref: string, filePath: string): Promise<BlameRange[] | null> {
  return repositoryReadCache.get(
    repo.path,
    `blame\0${ref}\0${filePath}`,
    async (): Promise<BlameRange[] | null> => {
      if (!checkFilePath(filePath).ok || !isSafeRevision(ref)) return null;
      const result = await repo.git(['blame', '--porcelain', ref, '--', filePath]);
      if (result.code !== 0) {
        if (MISSING.test(result.stderr)) return null;
        throw new GitError(['blame', ref, '--', filePath], result.code, result.stderr);
      }

      const groups: { sha: string; lines: string[] }[] = [];
      let current = '';
      for (const line of result.stdout.toString('utf8').split('\n')) {
        if (line.startsWith('\t')) {
          const last = groups[groups.length - 1];
          if (last?.sha === current) last.lines.push(line.slice(1));
          else groups.push({ sha: current, lines: [line.slice(1)] });
        } else {
          // Header lines are "<sha> <orig-line> <final-line>[ <count>]"; metadata lines start with a word.
          const header = /^([0-9a-f]{40}) \d+ \d+/.exec(line);
          if (header?.[1] !== undefined) current = header[1];
        }
      }
      if (groups.length === 0) return [];

      const shas = [...new Set(groups.map((g) => g.sha))];
      const log = await repo.gitOk([
        'log',
        '--no-walk=unsorted',
        `--format=${BLAME_COMMIT_FORMAT}`,
        ...shas,
        '--',
      ]);
      const commits = new Map<string, BlameCommit>();
      for (const [
        id = '',
        parents = '',
        an = '',
        ae = '',
        ad = '',
        cn = '',
        ce = '',
        cd = '',
        message = '',
      ] of parseRecords(log, BLAME_COMMIT_FIELDS.length)) {
        commits.set(id, {
          id,
          message,
          parent_ids: parents.split(' ').filter((p) => p.length > 0),
          authored_date: isoUtc(ad),
          author_name: an,
          author_email: ae,
          committed_date: isoUtc(cd),
          committer_name: cn,
          committer_email: ce,
        });
      }
      return groups.map((group) => {
        const commit = commits.get(group.sha);
        if (!commit) throw new Error(`blame: commit ${group.sha} missing from log output`);
        return { commit, lines: group.lines };
      });
    },
  );
}
