import { describe, expect, it } from 'vitest';
import { cappedVisibility, isValidProjectPath } from '../../core/access/newProjects.js';
import { ApiError } from '../../core/http/errors.js';
import { parseOverrideParams } from './imports.js';

describe('isValidProjectPath', () => {
  it('follows GitLab: letters, digits, _ - . ; not starting with -, not ending in .git or .atom', () => {
    for (const path of ['website', 'web_site-2', 'v1.0', '_x', '.x'])
      expect(isValidProjectPath(path), path).toBe(true);
    for (const path of ['', '-x', 'a b', 'a/b', 'x.git', 'x.atom', 'é'])
      expect(isValidProjectPath(path), path).toBe(false);
  });
});

describe('parseOverrideParams', () => {
  it('keeps the fields that apply and ignores other Projects API fields', () => {
    expect(
      parseOverrideParams({
        description: '',
        visibility: 'internal',
        default_branch: 'develop',
        name: 'N',
        issues_enabled: 'false',
      }),
    ).toEqual({
      description: '',
      visibility: 'internal',
      default_branch: 'develop',
      name: 'N',
    });
    expect(parseOverrideParams(undefined)).toEqual({});
  });

  it('refuses values of the wrong type or outside their enum with 400', () => {
    for (const value of ['x', [], { visibility: 'secret' }, { name: ' ' }, { default_branch: 3 }]) {
      expect(() => parseOverrideParams(value), JSON.stringify(value)).toThrow(ApiError);
    }
  });
});

describe('cappedVisibility', () => {
  it('never makes a project more visible than its group', () => {
    expect(cappedVisibility('public', 'public')).toBe('public');
    expect(cappedVisibility('public', 'internal')).toBe('internal');
    expect(cappedVisibility('internal', 'private')).toBe('private');
    expect(cappedVisibility('private', 'public')).toBe('private');
  });
});
