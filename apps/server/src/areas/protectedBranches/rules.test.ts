import { describe, expect, it } from 'vitest';
import { isValidBranchPattern } from './rules.js';

describe('isValidBranchPattern', () => {
  it('accepts branch names and wildcards', () => {
    for (const name of ['main', 'release/*', '*-stable', 'feature/a.b', 'v1.0', '*'])
      expect(isValidBranchPattern(name), name).toBe(true);
  });

  it('refuses what git refuses as a branch name', () => {
    for (const name of [
      '',
      'bad..name',
      'a b',
      'a~1',
      'a^',
      'a:b',
      'a?',
      'a[b',
      'a\\b',
      '-x',
      '/x',
      'x/',
      'x.',
      'a//b',
      '.hidden',
      'a/.b',
      'x.lock',
      'a@{1}',
      '@',
      'a\nb',
      'x'.repeat(256),
    ]) {
      expect(isValidBranchPattern(name), JSON.stringify(name)).toBe(false);
    }
  });
});
