// How the validated API splits the document among validator instances: groups of paths of one tag, each with a
// document of its own paths and the components they reach.
import { describe, expect, it } from 'vitest';
import {
  apiDocumentFor,
  documentForPaths,
  hasOwnServers,
  loadBundledSpec,
  validatorGroups,
} from './openapi.js';
import { isObject, type Json } from './specDocument.js';

const pathItem = (tag: string, schema?: string): Json => ({
  get: {
    operationId: `get${tag}`,
    tags: [tag],
    responses: {
      '200': {
        description: 'ok',
        ...(schema
          ? { content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } }
          : {}),
      },
    },
  },
});

const tagOf = (spec: Json, template: string): unknown => {
  const paths = spec.paths as Record<string, { get?: { tags?: string[] } }>;
  return paths[template]?.get?.tags?.[0];
};

describe('validatorGroups', () => {
  it('puts the paths of one tag together, at most eight in a group, each path once', () => {
    const paths: Record<string, Json> = {};
    for (let i = 0; i < 10; i++) paths[`/things/${i}`] = pathItem('Things');
    paths['/other'] = pathItem('Other');
    paths['/things/last'] = pathItem('Things');
    const spec: Json = { openapi: '3.1.0', paths };
    const groups = validatorGroups(spec);
    expect(groups.map((group) => group.length)).toEqual([8, 3, 1]);
    expect(groups.flat().sort()).toEqual(Object.keys(paths).sort());
    for (const group of groups) expect(new Set(group.map((path) => tagOf(spec, path))).size).toBe(1);
  });

  it('never puts a path with a path below it, which the validator would try first', () => {
    const paths: Record<string, Json> = {
      '/things': pathItem('Things'),
      '/things/{id}': pathItem('Things'),
      '/things/{id}/parts': pathItem('Things'),
      '/things/{id}/parts/{part}': pathItem('Things'),
      '/thingsets': pathItem('Things'),
      '/others': pathItem('Things'),
      '/others/{id}': pathItem('Things'),
    };
    const groups = validatorGroups({ openapi: '3.1.0', paths });
    // `/thingsets` starts with `/things`: the validator orders the two as it would a path below another.
    expect(groups).toEqual([
      ['/things', '/others'],
      ['/things/{id}', '/thingsets', '/others/{id}'],
      ['/things/{id}/parts'],
      ['/things/{id}/parts/{part}'],
    ]);
  });

  it('covers every path of the bundled API document once, in groups of one tag without nesting', () => {
    const spec = apiDocumentFor(loadBundledSpec(), '/api/v4', (path, item) => !hasOwnServers(path, item));
    const groups = validatorGroups(spec);
    const all = groups.flat();
    expect(all.length).toBe(new Set(all).size);
    expect(all.sort()).toEqual(Object.keys(spec.paths as Json).sort());
    for (const group of groups) {
      expect(group.length).toBeLessThanOrEqual(8);
      for (const path of group)
        expect(group.filter((other) => other !== path && other.startsWith(path))).toEqual([]);
    }
    // Each instance costs its own meta-schema compilation: at most one for two paths.
    expect(groups.length).toBeLessThanOrEqual(Object.keys(spec.paths as Json).length / 2);
  });
});

describe('documentForPaths', () => {
  it('keeps the given paths and the components they reach, directly or through another component', () => {
    const spec: Json = {
      openapi: '3.1.0',
      paths: { '/a': pathItem('A', 'Thing'), '/b': pathItem('B', 'Other'), '/c': pathItem('C') },
      components: {
        schemas: {
          Thing: { type: 'object', properties: { owner: { $ref: '#/components/schemas/User' } } },
          User: { type: 'object' },
          Other: { type: 'object' },
        },
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' } },
      },
    };
    const document = documentForPaths(spec, ['/a', '/c']);
    expect(Object.keys(document.paths as Json)).toEqual(['/a', '/c']);
    const components = document.components as Json;
    expect(isObject(components.schemas) && Object.keys(components.schemas).sort()).toEqual(['Thing', 'User']);
    expect(components.securitySchemes).toEqual((spec.components as Json).securitySchemes);
  });
});
