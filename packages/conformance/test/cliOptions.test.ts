// The options run, fuzz, proxy and diff share (src/cli/options.ts): one server however its URL is written,
// and one --only language.
import { describe, expect, it } from 'vitest';
import { baseUrlOption, onlyMatcher, UsageError } from '../src/cli/options.js';
import { loadSpecIndex } from '../src/specIndex.js';

const operations = loadSpecIndex().operations;
const selected = (pattern: string) =>
  operations
    .filter(onlyMatcher(pattern))
    .map((entry) => entry.operationId)
    .sort();

describe('--base-url', () => {
  it('reads the origin with or without /api/v4 and trailing slashes', () => {
    for (const form of [
      'http://127.0.0.1:3000',
      'http://127.0.0.1:3000/',
      'http://127.0.0.1:3000/api/v4',
      'http://127.0.0.1:3000/api/v4/',
      ' http://127.0.0.1:3000/api/v4 ',
    ])
      expect(baseUrlOption(form), form).toBe('http://127.0.0.1:3000');
    // A server mounted under a path keeps it.
    expect(baseUrlOption('https://example.com/gitlab/api/v4')).toBe('https://example.com/gitlab');
  });

  it('refuses what is no http(s) URL, naming the option', () => {
    for (const bad of ['127.0.0.1:3000', 'ftp://example.com', 'http://h/api/v4?x=1', 'nothing'])
      expect(() => baseUrlOption(bad, '--target'), bad).toThrow(UsageError);
    expect(() => baseUrlOption('nothing', '--target')).toThrow(/--target/);
  });
});

describe('--only', () => {
  it('takes parts of operationIds, tags, parts of METHOD /path and globs, comma-separated', () => {
    const badges = selected('badge');
    expect(badges).toContain('getProjectBadge');
    expect(badges.every((id) => /badge/i.test(id))).toBe(true);
    expect(selected('Badges')).toEqual(expect.arrayContaining(badges));
    expect(selected('*ProjectBadge*').every((id) => id.includes('ProjectBadge'))).toBe(true);
    expect(selected('*projectbadge*')).toEqual(selected('*ProjectBadge*'));
    expect(selected('GET /projects/{id}/badges')).toEqual([
      'getProjectBadge',
      'listProjectBadges',
      'renderProjectBadge',
    ]);
    expect(selected('getProjectBadge, getGroupBadge')).toEqual(['getGroupBadge', 'getProjectBadge']);
    expect(selected('no-such-thing')).toEqual([]);
  });
});
