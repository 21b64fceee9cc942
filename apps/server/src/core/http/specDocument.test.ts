import { describe, expect, it } from 'vitest';
import { type Json, OperationIndex, operationsOf } from './specDocument.js';

const spec: Json = {
  paths: {
    '/things': { get: { operationId: 'listThings' }, post: { operationId: 'createThing' } },
    '/things/{id}': { get: { operationId: 'getThing' } },
  },
};

describe('OperationIndex', () => {
  it('works out an operation’s value on the first request for it only, once', () => {
    const computed: string[] = [];
    const index = new OperationIndex(operationsOf(spec, '/api'), ({ key, operation }) => {
      computed.push(key);
      return String(operation.operationId);
    });
    expect([...index.keys()]).toEqual(['GET /api/things', 'POST /api/things', 'GET /api/things/{id}']);
    expect(computed).toEqual([]);
    expect(index.get('POST /api/things')).toBe('createThing');
    expect(index.get('POST /api/things')).toBe('createThing');
    expect(computed).toEqual(['POST /api/things']);
    expect(index.get('DELETE /api/things')).toBeUndefined();
    expect(computed).toEqual(['POST /api/things']);
  });
});
