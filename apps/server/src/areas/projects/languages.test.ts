import { describe, expect, it } from 'vitest';
import { languageOfPath, languageShares } from './languages.js';
import { nextKeysetCursor } from './service.js';

describe('languageOfPath', () => {
  it('knows languages by extension and by file name, case-insensitively', () => {
    expect(languageOfPath('src/app.TS')).toBe('TypeScript');
    expect(languageOfPath('lib/x.rb')).toBe('Ruby');
    expect(languageOfPath('Makefile')).toBe('Makefile');
    expect(languageOfPath('build/Dockerfile')).toBe('Dockerfile');
  });

  it('leaves out prose, data, vendored, documentation and minified files', () => {
    for (const path of [
      'README.md',
      'package.json',
      'ci.yml',
      'node_modules/a/b.js',
      'vendor/x.go',
      'docs/y.py',
      'a.min.js',
      'LICENSE',
      '.bashrc',
    ])
      expect(languageOfPath(path), path).toBeUndefined();
  });
});

describe('languageShares', () => {
  it('weights languages by bytes, largest first, two decimals', () => {
    expect(
      languageShares([
        { path: 'a.ts', size: 300 },
        { path: 'b.ts', size: 300 },
        { path: 'c.js', size: 300 },
        { path: 'README.md', size: 10_000 },
      ]),
    ).toEqual([
      { name: 'TypeScript', share: 66.67 },
      { name: 'JavaScript', share: 33.33 },
    ]);
  });

  it('adds up to exactly 100 whatever the rounding', () => {
    const files = ['a.py', 'b.go', 'c.rs', 'd.sh', 'e.c', 'f.java', 'g.rb'].map((path, index) => ({
      path,
      size: 1 + index * 7,
    }));
    const shares = languageShares(files);
    expect(shares).toHaveLength(7);
    expect(Math.round(shares.reduce((sum, language) => sum + language.share * 100, 0))).toBe(10_000);
    for (const { share } of shares) expect(Math.round(share * 100)).toBeCloseTo(share * 100, 6);
    // Three equal thirds: one of them takes the last hundredth.
    const thirds = languageShares([
      { path: 'a.go', size: 1 },
      { path: 'b.py', size: 1 },
      { path: 'c.rb', size: 1 },
    ]);
    expect(thirds.map((language) => language.share).sort()).toEqual([33.33, 33.33, 33.34]);
  });

  it('gives nothing for an empty repository or one without code', () => {
    expect(languageShares([])).toEqual([]);
    expect(languageShares([{ path: 'README.md', size: 5 }])).toEqual([]);
    expect(languageShares([{ path: 'empty.ts', size: 0 }])).toEqual([]);
  });
});

describe('nextKeysetCursor', () => {
  const page = [{ id: 3 }, { id: 7 }];
  it('points after the last ID in the direction of the order', () => {
    expect(nextKeysetCursor(page, true, 'asc')).toEqual({ name: 'id_after', value: 7 });
    expect(nextKeysetCursor(page, true, 'desc')).toEqual({ name: 'id_before', value: 7 });
  });
  it('ends on the last page', () => {
    expect(nextKeysetCursor(page, false, 'asc')).toBeUndefined();
    expect(nextKeysetCursor([], true, 'asc')).toBeUndefined();
  });
});
