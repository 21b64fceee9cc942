import { describe, expect, it } from 'vitest';
import { ScimError } from './errors.js';
import { readOperations } from './patchOperations.js';
import { usernameFrom } from './usernames.js';

describe('readOperations', () => {
  it('maps the attributes of Replace and Add, in any case, a later operation winning', () => {
    expect(
      readOperations([
        { op: 'Replace', path: 'externalId', value: 'first' },
        { op: 'add', path: 'id', value: 'second' },
        { op: 'REPLACE', path: 'name.formatted', value: 'Grace Hopper' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'grace@example.com' },
        { op: 'Add', path: 'userName', value: 'grace@idp.example.com' },
      ]),
    ).toEqual({ externUid: 'second', name: 'Grace Hopper', email: 'grace@example.com', username: 'grace' });
  });

  it('reads active as a boolean or its text, and path-less operations as objects of attributes', () => {
    expect(readOperations([{ op: 'Replace', path: 'active', value: 'False' }])).toEqual({ active: false });
    expect(readOperations([{ op: 'replace', value: { active: false, userName: 'ghopper' } }])).toEqual({
      active: false,
      username: 'ghopper',
    });
    expect(
      readOperations([{ op: 'Replace', path: 'name', value: { givenName: 'Ada', familyName: 'L' } }]),
    ).toEqual({
      name: 'Ada L',
    });
  });

  it('ignores Remove and attributes it does not map', () => {
    expect(
      readOperations([
        { op: 'Remove', path: 'userName', value: 'x' },
        { op: 'Replace', path: 'displayName', value: 'x' },
        {
          op: 'Replace',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
          value: 'x',
        },
      ]),
    ).toEqual({});
  });

  it.each([
    [{ op: 'Replace', path: 'active', value: 'maybe' }],
    [{ op: 'Replace', path: 'emails[type eq "work"].value', value: 'nobody' }],
    [{ op: 'Replace', path: 'userName', value: '@@' }],
    [{ op: 'Replace', path: 'name.formatted', value: '  ' }],
    [{ op: 'Replace', path: 'name.formatted', value: true }],
    [{ op: 'Replace', value: 'not an object' }],
  ])('refuses %j with a 400 invalidValue', (operation) => {
    try {
      readOperations([operation]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ScimError);
      expect((error as ScimError).status).toBe(400);
      expect((error as ScimError).scimType).toBe('invalidValue');
    }
  });
});

describe('usernameFrom', () => {
  it.each([
    ['ghopper', 'ghopper'],
    ['grace.hopper@example.com', 'grace.hopper'],
    ['Grace Hopper', 'Grace-Hopper'],
    ['José', 'Jose'],
    ['-.weird_name.-', 'weird_name'],
    ['repo.git', 'repo'],
    ['@example.com', ''],
    ['!!!', ''],
  ])('%j → %j', (given, expected) => {
    expect(usernameFrom(given)).toBe(expected);
  });
});
