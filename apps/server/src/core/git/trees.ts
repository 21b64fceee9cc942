/** Reading trees: one file with its blob and last commit, and the files of a tree (paths, sizes). */

import { posix } from 'node:path';
import { resolveRef } from './branches.js';
import { MISSING, parseBatchOutput } from './gitOutput.js';
import { type GitDir, GitError } from './gitProcess.js';
import { checkFilePath, isSafeRevision } from './names.js';
import { repositoryReadCache } from './readCache.js';

export interface FileBlob {
  blobId: string;
  size: number;
  content: Buffer;
  /** The commit the ref resolved to. */
  commitId: string;
  /** The newest commit reachable from `commitId` that touched the path. */
  lastCommitId: string;
  /** The tree entry's mode: `100644`, `100755` (executable) or `120000` (a symbolic link). */
  mode: string;
}

/** A file of a tree listing and its size in bytes. */
export interface TreeFile {
  path: string;
  size: number;
}

/**
 * The mode of `name` in a tree object's content (entries of `<mode> <name>\0<20-byte id>`), or undefined.
 */
export function modeInTree(tree: Buffer, name: string): string | undefined {
  const wanted = Buffer.from(name, 'utf8');
  let offset = 0;
  while (offset < tree.length) {
    const space = tree.indexOf(0x20, offset);
    const nul = tree.indexOf(0, space + 1);
    if (space < 0 || nul < 0) return undefined;
    if (tree.subarray(space + 1, nul).equals(wanted)) return tree.subarray(offset, space).toString('latin1');
    offset = nul + 1 + 20;
  }
  return undefined;
}

/**
 * The blob at `filePath` in `ref`. Two processes: one `cat-file --batch` resolves the commit and reads
 * the blob and its parent tree (for the blob's mode) together, then `log -1` finds the last commit that
 * touched the path.
 */
export async function readFile(repo: GitDir, ref: string, filePath: string): Promise<FileBlob | null> {
  return repositoryReadCache.get(
    repo.path,
    `readFile\0${ref}\0${filePath}`,
    async (): Promise<FileBlob | null> => {
      if (!checkFilePath(filePath).ok || !isSafeRevision(ref)) return null;
      // `<rev>:<path>` splits at the first colon, so a revision containing one is resolved first.
      const rev = ref.includes(':') ? await resolveRef(repo, ref) : ref;
      if (rev === null) return null;
      const result = await repo.git(['cat-file', '--batch'], {
        input: `${rev}^{commit}\n${rev}:${filePath}\n${rev}:${parentDirectory(filePath)}\n`,
      });
      if (result.code !== 0) throw new GitError(['cat-file', '--batch'], result.code, result.stderr);
      const objects = parseBatchOutput(result.stdout);
      const commit = objects[0];
      const blob = objects[1];
      const parent = objects[2];
      if (commit?.type !== 'commit' || blob?.type !== 'blob') return null;
      const log = await repo.gitOk(['log', '-1', '--format=%H', commit.id, '--', filePath]);
      return {
        blobId: blob.id,
        size: blob.content.length,
        content: blob.content,
        commitId: commit.id,
        lastCommitId: log.toString('utf8').trim(),
        mode: (parent?.type === 'tree' && modeInTree(parent.content, posix.basename(filePath))) || '100644',
      };
    },
    (blob) => blob?.size ?? 0,
  );
}

/** The directory holding `filePath`, as `<rev>:<path>` names it (empty for the root tree). */
function parentDirectory(filePath: string): string {
  const directory = posix.dirname(filePath);
  return directory === '.' ? '' : directory;
}

/** Every file (blob) path at `ref`, recursively; null when the ref is unknown. */
export async function listTreePaths(repo: GitDir, ref: string): Promise<string[] | null> {
  return repositoryReadCache.get(repo.path, `listTreePaths\0${ref}`, async (): Promise<string[] | null> => {
    if (!isSafeRevision(ref)) return null;
    const result = await repo.git(['ls-tree', '-r', '-z', '--full-tree', `${ref}^{commit}`]);
    if (result.code !== 0) {
      if (MISSING.test(result.stderr)) return null;
      throw new GitError(['ls-tree', ref], result.code, result.stderr);
    }
    const paths: string[] = [];
    for (const line of result.stdout.toString('utf8').split('\0')) {
      // "<mode> <type> <sha>\t<path>"; gitlinks (submodules) are not files of this repository.
      const tab = line.indexOf('\t');
      if (tab > 0 && line.split(' ', 2)[1] === 'blob') paths.push(line.slice(tab + 1));
    }
    return paths;
  });
}

/**
 * Every file (blob) at `ref` with its size in bytes (`ls-tree -r -l`), recursively, or only the top level
 * with `recursive: false`; null when the ref is unknown (an empty repository).
 */
export async function listTreeFiles(
  repo: GitDir,
  ref: string,
  options: { recursive: boolean },
): Promise<TreeFile[] | null> {
  const key = `listTreeFiles\0${options.recursive ? 'r' : '1'}\0${ref}`;
  return repositoryReadCache.get(repo.path, key, async (): Promise<TreeFile[] | null> => {
    if (!isSafeRevision(ref)) return null;
    const args = [
      'ls-tree',
      '-l',
      '-z',
      '--full-tree',
      ...(options.recursive ? ['-r'] : []),
      `${ref}^{commit}`,
    ];
    const result = await repo.git(args);
    if (result.code !== 0) {
      if (MISSING.test(result.stderr)) return null;
      throw new GitError(['ls-tree', ref], result.code, result.stderr);
    }
    const files: TreeFile[] = [];
    for (const line of result.stdout.toString('utf8').split('\0')) {
      // "<mode> blob <sha> <size padded>\t<path>"; trees and gitlinks have no size ("-").
      const tab = line.indexOf('\t');
      if (tab <= 0) continue;
      const [, type, , size] = line.slice(0, tab).split(/ +/);
      if (type === 'blob' && size !== undefined && /^\d+$/.test(size))
        files.push({ path: line.slice(tab + 1), size: Number(size) });
    }
    return files;
  });
}
