import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/http/errors.js';
import { isValidProjectName, pathFromName } from './entry.js';
import { recogniseLicense } from './license.js';
import { parseTopics, settingsChanges } from './settings.js';

describe('pathFromName', () => {
  it("makes GitLab's path from a name (parameterize)", () => {
    expect(pathFromName('My Project')).toBe('my-project');
    expect(pathFromName('  Déjà  vu!! 2.0 ')).toBe('deja-vu-2-0');
    expect(pathFromName('snake_case-name')).toBe('snake_case-name');
    expect(pathFromName('***')).toBe('');
  });
});

describe('isValidProjectName', () => {
  it('takes letters, digits, emoji, _ . + dashes and spaces, starting with a letter, digit, emoji or _', () => {
    for (const name of ['My Project', '_x', 'v1.0+beta', 'Über-Projekt', '🚀 launch'])
      expect(isValidProjectName(name), name).toBe(true);
    for (const name of ['', ' x', '-x', '.x', 'a/b', 'a<b', 'a\u0000b'])
      expect(isValidProjectName(name), name).toBe(false);
  });
});

describe('recogniseLicense', () => {
  it('tells the common licenses apart, the more specific first, and calls the rest other', () => {
    expect(
      recogniseLicense('Permission is hereby granted, free of charge, to any person obtaining').key,
    ).toBe('mit');
    expect(recogniseLicense('GNU LESSER GENERAL PUBLIC LICENSE\n Version 3, 29 June 2007').key).toBe(
      'lgpl-3.0',
    );
    expect(recogniseLicense('GNU GENERAL PUBLIC LICENSE\n   Version 3, 29 June 2007').key).toBe('gpl-3.0');
    expect(recogniseLicense('Apache License\n Version 2.0, January 2004').key).toBe('apache-2.0');
    expect(
      recogniseLicense('Redistribution and use in source and binary forms ... Neither the name of').key,
    ).toBe('bsd-3-clause');
    expect(recogniseLicense('All rights reserved.')).toEqual({
      key: 'other',
      name: 'Other',
      nickname: null,
      html_url: null,
      source_url: null,
    });
  });
});

describe('settings', () => {
  it('reads topics from a list or a comma-separated string, trimmed, without blanks or repeats', () => {
    expect(parseTopics(' a, b,,A ,c', 'topics')).toEqual(['a', 'b', 'c']);
    expect(parseTopics(['x', ' y '], 'topics')).toEqual(['x', 'y']);
    expect(() => parseTopics([1], 'topics')).toThrow(ApiError);
  });

  it('turns a body into column values; replacements win over their deprecated names', () => {
    expect(
      settingsChanges({
        issues_enabled: false,
        public_builds: false,
        public_jobs: true,
        emails_enabled: false,
        merge_method: 'ff',
        ci_config_path: ' ',
        tag_list: 'old',
        topics: ['new'],
      }),
    ).toEqual({
      issues_enabled: 0,
      public_jobs: 1,
      emails_disabled: 1,
      merge_method: 'ff',
      ci_config_path: null,
      topics: '["new"]',
    });
    expect(settingsChanges({})).toEqual({});
  });
});
