/**
 * Moving a repository's content elsewhere: push mirrors (with credentials masked in every message), bundles
 * for export, and clones from a bundle for import.
 */

import { isAbsolute } from 'node:path';
import { CONFIG_ARGS, GitDir, GitError, runGit } from './gitProcess.js';
import { isSafeRevision } from './names.js';
import { repositoryReadCache } from './readCache.js';

const PUSH_TIMEOUT_MS = 60_000;

export type PushMirrorResult = { ok: true } | { ok: false; error: string };

export interface PushMirrorOptions {
  /** The branches to push (every tag is pushed too). */
  branches: string[];
  /** Overwrite what differs on the mirror and delete what the project no longer has (keep_divergent_refs off). */
  force: boolean;
  /** Which of the mirror's branches this mirror manages, so may delete (only_protected_branches limits it). */
  coversBranch: (name: string) => boolean;
}

/** Hides `user:password@` in URLs and any literal password from `url` in a message. */
export function maskCredentials(text: string, url?: string): string {
  let masked = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1*****@');
  if (url) {
    try {
      const parsed = new URL(url);
      for (const secret of [parsed.password, parsed.username]) {
        if (secret.length >= 3) {
          masked = masked.split(secret).join('*****');
          masked = masked.split(decodeURIComponent(secret)).join('*****');
        }
      }
    } catch {
      // Not a URL (scp-like or a local path): the regex above is all we can do.
    }
  }
  return masked;
}

/**
 * Mirrors the repository to `url` as GitLab's push mirrors do: the given branches and every tag, with
 * explicit refspecs. With `force` (keep_divergent_refs off) refs that differ on the mirror are overwritten
 * and the mirror's branches (those `coversBranch` accepts) and tags that the project does not have are
 * deleted; without it nothing is overwritten or deleted, and git reports what diverged. Errors are
 * returned with credentials masked, never thrown.
 */
export async function pushMirror(
  repo: GitDir,
  url: string,
  options: PushMirrorOptions,
): Promise<PushMirrorResult> {
  if (url.length === 0 || url.startsWith('-')) return { ok: false, error: 'invalid mirror URL' };
  const bad = options.branches.find((name) => !isSafeRevision(name));
  if (bad !== undefined) return { ok: false, error: `invalid branch name: ${bad}` };
  const plus = options.force ? '+' : '';
  const tags = await tagNames(repo);
  const refspecs = [
    ...options.branches.map((name) => `${plus}refs/heads/${name}:refs/heads/${name}`),
    ...tags.map((name) => `${plus}refs/tags/${name}:refs/tags/${name}`),
  ];
  try {
    if (options.force) {
      const remote = await remoteRefs(repo, url);
      if (!remote.ok) return remote;
      const branches = new Set(options.branches);
      const localTags = new Set(tags);
      for (const ref of remote.refs) {
        const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
        const tag = ref.startsWith('refs/tags/') ? ref.slice('refs/tags/'.length) : undefined;
        if (branch !== undefined && !branches.has(branch) && options.coversBranch(branch))
          refspecs.push(`:${ref}`);
        if (tag !== undefined && !localTags.has(tag)) refspecs.push(`:${ref}`);
      }
    }
    if (refspecs.length === 0) return { ok: true };
    const result = await repo.git(['push', '--quiet', '--no-verify', '--end-of-options', url, ...refspecs], {
      timeoutMs: PUSH_TIMEOUT_MS,
    });
    if (result.timedOut) return { ok: false, error: `push timed out after ${PUSH_TIMEOUT_MS / 1000} s` };
    if (result.code === 0) return { ok: true };
    const error = result.stderr.trim() || `git push exited with ${result.code}`;
    return { ok: false, error: maskCredentials(error, url) };
  } catch (error) {
    return { ok: false, error: maskCredentials(String(error), url) };
  }
}

/** The names of the repository's tags. */
export async function tagNames(repo: GitDir): Promise<string[]> {
  const out = await repo.gitOk(['for-each-ref', '--format=%(refname:lstrip=2)', 'refs/tags/']);
  return out.toString('utf8').split('\n').filter(Boolean);
}

/** The branches and tags of a remote repository (full ref names), or the masked error. */
async function remoteRefs(
  repo: GitDir,
  url: string,
): Promise<{ ok: true; refs: string[] } | { ok: false; error: string }> {
  const result = await repo.git(['ls-remote', '--refs', '--heads', '--tags', '--end-of-options', url], {
    timeoutMs: PUSH_TIMEOUT_MS,
  });
  if (result.timedOut) return { ok: false, error: `listing the mirror's refs timed out` };
  if (result.code !== 0) {
    const error = result.stderr.trim() || `git ls-remote exited with ${result.code}`;
    return { ok: false, error: maskCredentials(error, url) };
  }
  const refs = result.stdout
    .toString('utf8')
    .split('\n')
    .map((line) => line.split('\t')[1])
    .filter((ref): ref is string => ref !== undefined && isSafeRevision(ref));
  return { ok: true, refs };
}

/** Writes every ref and the objects they need into one bundle file (throws for an empty repository). */
export async function createBundle(repo: GitDir, outputPath: string): Promise<void> {
  await repo.gitOk(['bundle', 'create', '--quiet', outputPath, '--all']);
}

/**
 * A new bare repository at `targetPath` holding every branch and tag of the bundle at the same SHAs.
 * The bundle is not kept as a remote: the repository must not depend on the import file.
 */
export async function cloneBundle(bundlePath: string, targetPath: string): Promise<void> {
  if (!isAbsolute(targetPath) || bundlePath.startsWith('-')) throw new Error('invalid bundle or target path');
  const args = [...CONFIG_ARGS, 'clone', '--quiet', '--bare', '--', bundlePath, targetPath];
  const result = await runGit(args);
  if (result.code !== 0) throw new GitError(args, result.code, result.stderr);
  repositoryReadCache.invalidate(targetPath);
  await new GitDir(targetPath).gitOk(['remote', 'remove', 'origin']);
}
