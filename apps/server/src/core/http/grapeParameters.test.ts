// Parameters read as Grape reads them: the pure parts (values by schema, the query string), on a small document.
import { describe, expect, it } from 'vitest';
import { toBoolean } from './booleans.js';
import { allowedMethods } from './errors.js';
import { indexReadings, readQueryString, readValue } from './grapeParameters.js';
import { operationsOf } from './specDocument.js';

const spec = {
  paths: {
    '/things/{thing_id}': {
      parameters: [{ name: 'thing_id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        parameters: [
          { name: 'search', in: 'query', schema: { type: 'string' } },
          { name: 'archived', in: 'query', schema: { type: 'boolean' } },
          { name: 'ref', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'flags', in: 'query', schema: { type: 'array', items: { type: 'boolean' } } },
        ],
      },
      put: {
        requestBody: {
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/Change' } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Change: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string' },
          level: { type: ['integer', 'null'] },
          ratio: { type: ['number', 'null'] },
          enabled: { type: ['boolean', 'null'] },
          visibility: { oneOf: [{ $ref: '#/components/schemas/Visibility' }, { type: 'null' }] },
          ids: { type: ['array', 'null'], items: { type: 'integer' } },
          nested: {
            type: ['object', 'null'],
            required: ['key'],
            properties: { key: { type: 'string' }, value: { type: ['string', 'null'] } },
          },
          either: { type: ['integer', 'string', 'null'] },
          grants: {
            type: ['array', 'null'],
            items: {
              oneOf: [
                { type: 'object', required: ['user_id'], properties: { user_id: { type: 'integer' } } },
                {
                  type: 'object',
                  required: ['access_level'],
                  properties: { access_level: { type: 'integer' } },
                },
              ],
            },
          },
        },
      },
      Visibility: { type: 'string', enum: ['private', 'public'] },
    },
  },
};

const index = indexReadings(spec, operationsOf(spec, '/api'));
const get = index.get('GET /api/things/{thing_id}');
const put = index.get('PUT /api/things/{thing_id}');

describe('toBoolean', () => {
  it('reads every spelling of Grape and nothing else', () => {
    for (const yes of [
      '1',
      'on',
      'On',
      'ON',
      't',
      'T',
      'true',
      'True',
      'TRUE',
      'y',
      'Y',
      'yes',
      'Yes',
      'YES',
    ])
      expect(toBoolean(yes), yes).toBe(true);
    for (const no of [
      '0',
      'off',
      'Off',
      'OFF',
      'f',
      'F',
      'false',
      'False',
      'FALSE',
      'n',
      'N',
      'no',
      'No',
      'NO',
    ])
      expect(toBoolean(no), no).toBe(false);
    expect([true, false, 1, 0].map(toBoolean)).toEqual([true, false, true, false]);
    for (const other of ['', 'maybe', 'tRuE', '2', 2, null, undefined, {}])
      expect(toBoolean(other)).toBeUndefined();
  });
});

describe('indexReadings', () => {
  it('indexes query parameters, integer path parameters and the body by the matched route', () => {
    expect(get?.integerPath).toEqual(['thing_id']);
    expect(get?.query.get('ref')).toEqual({ required: true, reader: { kind: 'string' } });
    expect(get?.query.get('flags')?.reader).toEqual({ kind: 'array', items: { kind: 'boolean' } });
    expect(get?.body).toBeUndefined();
    expect(put?.body?.kind).toBe('object');
  });
});

describe('readValue', () => {
  const read = (body: Record<string, unknown>) => {
    if (!put?.body) throw new Error('no body reader');
    return readValue(body, put.body);
  };

  it('drops a null of an optional property, keeps one of a required property', () => {
    expect(
      read({ name: 'a', level: null, enabled: null, visibility: null, nested: { key: 'k', value: null } }),
    ).toEqual({
      name: 'a',
      nested: { key: 'k' },
    });
    expect(read({ name: null })).toEqual({ name: null });
    expect(read({ name: 'a', nested: { key: null } })).toEqual({ name: 'a', nested: { key: null } });
  });

  it('reads numbers and booleans given as text, and scalars given for text, as Grape does', () => {
    expect(
      read({ name: 30, level: '30', ratio: '0.5', enabled: 'True', ids: ['1', 2], visibility: 'public' }),
    ).toEqual({ name: '30', level: 30, ratio: 0.5, enabled: true, ids: [1, 2], visibility: 'public' });
    expect(read({ name: true, enabled: 'no' })).toEqual({ name: 'true', enabled: false });
    // Form fields `grants[][user_id]=5`: items of several object variants read as one object.
    expect(read({ name: 'a', grants: [{ user_id: '5' }, { access_level: '40' }] })).toEqual({
      name: 'a',
      grants: [{ user_id: 5 }, { access_level: 40 }],
    });
  });

  it('leaves what Grape could not read either, for the validator to refuse by name', () => {
    expect(read({ name: 'a', level: 'high', enabled: 'maybe', ratio: '1.2.3' })).toEqual({
      name: 'a',
      level: 'high',
      enabled: 'maybe',
      ratio: '1.2.3',
    });
    // Past the integers an ID can be: still text, which the validator refuses as not an integer.
    expect(read({ name: 'a', level: '99999999999999999999' })).toMatchObject({
      level: '99999999999999999999',
    });
    // A schema of several types is left alone, and so is an unknown property.
    expect(read({ name: 'a', either: '5', other: null })).toEqual({ name: 'a', either: '5', other: null });
  });
});

describe('readQueryString', () => {
  const query = get?.query ?? new Map();

  it('leaves a query GitLab reads as it is untouched', () => {
    expect(readQueryString('search=a&archived=true&ref=main', query)).toBeUndefined();
    expect(readQueryString('ref=main&private_token=x', query)).toBeUndefined();
  });

  it('drops undeclared names and empty values of optional parameters, keeping a required one', () => {
    expect(readQueryString('search=&bogus=1&ref=main', query)).toEqual(['ref=main']);
    expect(readQueryString('ref=&archived=', query)).toEqual(['ref=']);
    expect(readQueryString('custom[x]=1&ref=main', query)).toEqual(['ref=main']);
  });

  it('spells booleans canonically, in arrays too, and leaves a wrong one for the validator', () => {
    expect(readQueryString('archived=True&ref=main', query)).toEqual(['archived=true', 'ref=main']);
    expect(readQueryString('archived=0', query)).toEqual(['archived=false']);
    expect(readQueryString('flags[]=yes&flags[]=N', query)).toEqual(['flags[]=true', 'flags[]=false']);
    expect(readQueryString('archived=maybe', query)).toBeUndefined();
  });
});

describe('allowedMethods', () => {
  it('names the methods in upper case, HEAD with GET', () => {
    expect(allowedMethods('get, put')).toBe('GET, PUT, HEAD');
    expect(allowedMethods('POST')).toBe('POST');
    expect(allowedMethods('GET, HEAD')).toBe('GET, HEAD');
    expect(allowedMethods(undefined)).toBeUndefined();
  });
});
