import { describe, expect, it } from 'vitest';
import { RouteIndex } from './routeIndex.js';
import type { Json } from './specDocument.js';

const operation = (operationId: string): Json => ({ operationId, responses: {} });

const spec: Json = {
  openapi: '3.1.0',
  paths: {
    '/projects/{id}/repository/files/{file_path}': {
      get: operation('getFile'),
      put: operation('updateFile'),
    },
    '/projects/{id}/repository/files/{file_path}/raw': { get: operation('getRawFile') },
    '/projects/{id}/starred': { get: operation('getStarred') },
    '/projects/{id}': { get: operation('getProject') },
    '/projects/starred': { post: operation('starSomething') },
  },
};
const index = new RouteIndex(spec, '/api/v4');

describe('RouteIndex.match', () => {
  it('finds the operation and decodes its path parameters (%2F is the parameter’s own slash)', () => {
    expect(index.match('GET', '/projects/acme%2Fwebsite/repository/files/docs%2FREADME.md')).toEqual({
      kind: 'operation',
      operation: expect.objectContaining({
        operationId: 'getFile',
        key: 'GET /api/v4/projects/{id}/repository/files/{file_path}',
      }),
      params: { id: 'acme/website', file_path: 'docs/README.md' },
    });
  });

  it('matches literal segments in any case, as Express routes by default', () => {
    const match = index.match('GET', '/PROJECTS/7/Repository/FILES/a.txt/Raw');
    expect(match).toMatchObject({
      operation: { operationId: 'getRawFile' },
      params: { id: '7', file_path: 'a.txt' },
    });
  });

  it('prefers a literal segment, and falls back to a parameter when the literal leads nowhere', () => {
    expect(index.match('POST', '/projects/starred')).toMatchObject({
      operation: { operationId: 'starSomething' },
    });
    expect(index.match('GET', '/projects/starred')).toEqual({ kind: 'method', allow: ['POST'] });
    expect(index.match('GET', '/projects/starred/starred')).toMatchObject({
      operation: { operationId: 'getStarred' },
      params: { id: 'starred' },
    });
  });

  it('serves HEAD by GET, lists the methods of a path for another, and ignores a trailing slash', () => {
    expect(index.match('HEAD', '/projects/1/')).toMatchObject({ operation: { operationId: 'getProject' } });
    expect(index.match('DELETE', '/projects/1/repository/files/a')).toEqual({
      kind: 'method',
      allow: ['GET', 'PUT'],
    });
    expect(index.match('GET', '/projects/1/unknown')).toBeUndefined();
    expect(index.match('GET', '/projects//starred')).toBeUndefined();
  });

  it('throws a URIError for malformed percent-encoding in a parameter', () => {
    expect(() => index.match('GET', '/projects/%E0%A4%A')).toThrow(URIError);
  });
});
