// Pure rules about remote mirror URLs and push outcomes: which URLs are accepted, how their credentials are
// masked, and which refs a non-forced push skipped because they diverged on the remote.
import { isAbsolute, relative, resolve } from 'node:path';

export const MIRROR_SCHEMES = ['http', 'https', 'ssh', 'git', 'file'] as const;

export type MirrorUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

const MASK = '*****';

/**
 * Accepts http, https, ssh and git URLs with a host, and file URLs with an absolute path and no host
 * (`file:///srv/mirrors/repo.git`). Anything git could read as an option or a second argument (a leading
 * `-`, whitespace, control characters) is refused, and so are scp-like addresses (`git@host:repo`) and
 * relative paths: the seed speaks of URLs.
 */
export function checkMirrorUrl(url: string): MirrorUrlCheck {
  if (url.startsWith('-') || /\s/.test(url) || hasControlCharacters(url))
    return { ok: false, message: 'is invalid' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, message: 'is invalid' };
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  if (!(MIRROR_SCHEMES as readonly string[]).includes(scheme)) {
    return { ok: false, message: `is blocked: Only allowed schemes are ${MIRROR_SCHEMES.join(', ')}` };
  }
  if (scheme === 'file') {
    if (parsed.host !== '' || !url.toLowerCase().startsWith('file:///')) {
      return { ok: false, message: 'is blocked: a file URL must name a local path (file:///path)' };
    }
    return { ok: true, url: parsed };
  }
  // WHATWG parsing forgives `https:host/x` and `https:///host/x`; git does not, so the text itself must
  // have `scheme://` followed by the authority.
  if (parsed.hostname === '' || !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]/i.test(url))
    return { ok: false, message: 'is invalid: it has no host' };
  // The raw text must hold the credentials exactly where the parser found them, or masking could miss them.
  if ((parsed.username !== '' || parsed.password !== '') && userInfoOf(url) === undefined) {
    return { ok: false, message: 'is invalid' };
  }
  return { ok: true, url: parsed };
}

function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The local path a file URL names (decoded), or undefined for other schemes. */
export function localPathOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'file:' ? resolve(decodeURIComponent(parsed.pathname)) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `path` is `directory` or inside it (both absolute). */
export function isInside(path: string, directory: string): boolean {
  const rel = relative(directory, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** `user:password` of `scheme://user:password@host/…` as written, or undefined when there is none. */
function userInfoOf(url: string): { start: number; end: number } | undefined {
  const schemeEnd = url.indexOf('://');
  if (schemeEnd < 0) return undefined;
  const start = schemeEnd + 3;
  const authorityEnd = url.slice(start).search(/[/?#]/);
  const authority = authorityEnd < 0 ? url.slice(start) : url.slice(start, start + authorityEnd);
  // The last `@` ends the user info: an unencoded `@` inside a password belongs to it.
  const at = authority.lastIndexOf('@');
  return at < 0 ? undefined : { start, end: start + at };
}

/**
 * The URL as the API shows it: user and password replaced by `*****`
 * (`https://user:token@host/repo.git` → `https://*****:*****@host/repo.git`). The rest is kept as written.
 */
export function maskMirrorUrl(url: string): string {
  const userInfo = userInfoOf(url);
  if (!userInfo) return url;
  const text = url.slice(userInfo.start, userInfo.end);
  const masked = text.includes(':') ? `${MASK}:${MASK}` : MASK;
  return `${url.slice(0, userInfo.start)}${masked}${url.slice(userInfo.end)}`;
}

/**
 * Rejections that mean the remote ref differs from the project's: a branch with commits the project does
 * not have, or a tag that points elsewhere ("already exists": git never moves a tag without force).
 */
const DIVERGED =
  /^\s*!\s+\[rejected\]\s+(\S+)\s+->\s+(\S+)\s+\((non-fast-forward|fetch first|stale info|already exists)\)\s*$/;
/** Any other line git uses to report a failed ref or a failed push. */
const OTHER_FAILURE = /^(?:\s*!\s|fatal:|error: (?!failed to push some refs))/;

/**
 * Reads the stderr of a non-forced push (LC_ALL=C): the branches it skipped because they diverged, and
 * whether anything else failed. `diverged` names remote refs (`refs/heads/main`, `refs/tags/v1.0`).
 */
export function readPushRejections(stderr: string): { diverged: string[]; otherFailure: boolean } {
  const diverged: string[] = [];
  let otherFailure = false;
  for (const line of stderr.split('\n')) {
    const match = DIVERGED.exec(line);
    if (match?.[2]) {
      const ref = match[2];
      const namespace = match[3] === 'already exists' ? 'refs/tags/' : 'refs/heads/';
      diverged.push(ref.startsWith('refs/') ? ref : `${namespace}${ref}`);
    } else if (OTHER_FAILURE.test(line)) {
      otherFailure = true;
    }
  }
  return { diverged, otherFailure };
}

/** GitLab's wording for an update that skipped diverged refs. */
export function divergedRefsMessage(refs: readonly string[]): string {
  return `Some refs have diverged and have not been updated on the remote:\n\n${refs.join('\n')}`;
}
