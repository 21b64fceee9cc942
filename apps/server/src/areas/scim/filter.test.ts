import { describe, expect, it } from 'vitest';
import { parseUserFilter, UnsupportedFilter } from './filter.js';

describe('parseUserFilter', () => {
  it('reads id, externalId and userName with eq, in any case', () => {
    expect(parseUserFilter('id eq "0b1c-2d3e"')).toEqual({ attribute: 'extern_uid', value: '0b1c-2d3e' });
    expect(parseUserFilter('externalId EQ "abc"')).toEqual({ attribute: 'extern_uid', value: 'abc' });
    expect(parseUserFilter('  userName eq "grace.hopper"  ')).toEqual({
      attribute: 'username',
      value: 'grace.hopper',
    });
    expect(parseUserFilter('USERNAME Eq "ghopper"')).toEqual({ attribute: 'username', value: 'ghopper' });
  });

  it('keeps spaces and reads escapes inside the quoted value', () => {
    expect(parseUserFilter('id eq "a b"')).toEqual({ attribute: 'extern_uid', value: 'a b' });
    expect(parseUserFilter('id eq "say \\"hi\\""')).toEqual({ attribute: 'extern_uid', value: 'say "hi"' });
  });

  it.each([
    'id ne "x"',
    'userName co "gr"',
    'userName sw "g"',
    'emails eq "grace@example.com"',
    'displayName eq "Grace"',
    'id eq x',
    'id eq ""',
    'id eq "x" and userName eq "y"',
    'id pr',
    'id eq "unterminated',
    '',
    'eq "x"',
  ])('refuses %j', (filter) => {
    expect(() => parseUserFilter(filter)).toThrow(UnsupportedFilter);
  });
});
