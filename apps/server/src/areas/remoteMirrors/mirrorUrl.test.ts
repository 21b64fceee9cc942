import { describe, expect, it } from 'vitest';
import {
  checkMirrorUrl,
  divergedRefsMessage,
  isInside,
  localPathOf,
  maskMirrorUrl,
  readPushRejections,
} from './mirrorUrl.js';

describe('checkMirrorUrl', () => {
  it.each([
    'https://example.com/group/repo.git',
    'http://user:token@example.com:8080/repo.git',
    'ssh://git@example.com/repo.git',
    'git://example.com/repo.git',
    'file:///srv/mirrors/repo.git',
    'file:///tmp/with%20space/repo.git',
  ])('accepts %s', (url) => {
    expect(checkMirrorUrl(url).ok).toBe(true);
  });

  it.each([
    ['ftp://example.com/repo.git', /Only allowed schemes are http, https, ssh, git, file/],
    ['javascript:alert(1)', /Only allowed schemes/],
    ['git@example.com:group/repo.git', /Only allowed schemes|is invalid/],
    ['/srv/mirrors/repo.git', /is invalid/],
    ['repo.git', /is invalid/],
    ['-uhttps://example.com/x', /is invalid/],
    ['https://example.com/a repo.git', /is invalid/],
    ['https://example.com/repo.git\n--upload-pack=x', /is invalid/],
    ['https:///repo.git', /no host/],
    ['https:example.com/repo.git', /no host/],
    ['file://server/share/repo.git', /local path/],
  ])('refuses %s', (url, message) => {
    const check = checkMirrorUrl(url);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(message);
  });
});

describe('maskMirrorUrl', () => {
  it('replaces user and password and keeps the rest as written', () => {
    expect(maskMirrorUrl('https://mirror-bot:s3cr3t@Example.com/Group/Repo.git')).toBe(
      'https://*****:*****@Example.com/Group/Repo.git',
    );
  });

  it('masks a lone user name', () => {
    expect(maskMirrorUrl('ssh://git@example.com/repo.git')).toBe('ssh://*****@example.com/repo.git');
  });

  it('masks a password that contains an unencoded @ entirely', () => {
    const masked = maskMirrorUrl('https://bot:p@ss@example.com/repo.git');
    expect(masked).toBe('https://*****:*****@example.com/repo.git');
    expect(masked).not.toContain('ss@');
  });

  it('leaves URLs without credentials and @ in the path alone', () => {
    expect(maskMirrorUrl('https://example.com/repo.git')).toBe('https://example.com/repo.git');
    expect(maskMirrorUrl('https://example.com/@scope/repo.git')).toBe('https://example.com/@scope/repo.git');
    expect(maskMirrorUrl('file:///srv/repo.git')).toBe('file:///srv/repo.git');
  });
});

describe('localPathOf and isInside', () => {
  it('decodes the path of file URLs only', () => {
    expect(localPathOf('file:///tmp/with%20space/repo.git')).toBe('/tmp/with space/repo.git');
    expect(localPathOf('https://example.com/repo.git')).toBeUndefined();
  });

  it('knows a directory contains itself and its descendants, not its siblings', () => {
    expect(isInside('/data', '/data')).toBe(true);
    expect(isInside('/data/repositories/default/1.git', '/data')).toBe(true);
    expect(isInside('/data2/x', '/data')).toBe(false);
    expect(isInside('/', '/data')).toBe(false);
  });
});

describe('readPushRejections', () => {
  it('finds the diverged branches of a non-forced push that updated others', () => {
    const stderr = [
      'To /tmp/mirror.git',
      '   7444c67..c5d2d93  develop -> develop',
      ' ! [rejected]        main -> main (fetch first)',
      ' ! [rejected]        release/1.0 -> release/1.0 (non-fast-forward)',
      "error: failed to push some refs to '/tmp/mirror.git'",
      'hint: Updates were rejected because the remote contains work that you do',
    ].join('\n');
    expect(readPushRejections(stderr)).toEqual({
      diverged: ['refs/heads/main', 'refs/heads/release/1.0'],
      otherFailure: false,
    });
  });

  it('names a tag that points elsewhere on the mirror as a diverged tag', () => {
    const stderr = [
      'To /tmp/mirror.git',
      ' ! [rejected]        v1.0 -> v1.0 (already exists)',
      "error: failed to push some refs to '/tmp/mirror.git'",
      'hint: Updates were rejected because the tag already exists in the remote.',
    ].join('\n');
    expect(readPushRejections(stderr)).toEqual({ diverged: ['refs/tags/v1.0'], otherFailure: false });
  });

  it('reports any other failure', () => {
    expect(
      readPushRejections("fatal: '/nonexistent/repo.git' does not appear to be a git repository")
        .otherFailure,
    ).toBe(true);
    const hookDenied =
      ' ! [remote rejected] main -> main (pre-receive hook declined)\n ! [rejected] dev -> dev (non-fast-forward)';
    expect(readPushRejections(hookDenied)).toEqual({ diverged: ['refs/heads/dev'], otherFailure: true });
  });

  it('words the error as GitLab does', () => {
    expect(divergedRefsMessage(['refs/heads/main'])).toBe(
      'Some refs have diverged and have not been updated on the remote:\n\nrefs/heads/main',
    );
  });
});
