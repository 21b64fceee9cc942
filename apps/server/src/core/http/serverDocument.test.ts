// The document the server reads at start (loadBundledSpec: spec/dist/openapi.server.json) is the bundled spec
// without its annotations, and nothing else is missing: every other key, every name of a property, path,
// media type or component, every literal (enums, defaults) is the full document's.
import { readFileSync } from 'node:fs';
import { bundledSpecJsonPath } from '@collab/spec';
import { describe, expect, it } from 'vitest';
import { loadBundledSpec } from './openapi.js';
import { isObject, type Json, operationsOf } from './specDocument.js';

const ANNOTATION = /^(description|summary|example|examples|externalDocs|x-.*)$/;
/** Objects whose keys are names: the server's document must keep every one of them. */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  'paths',
  'schemas',
  'parameters',
  'responses',
  'requestBodies',
  'headers',
  'securitySchemes',
  'content',
  'mapping',
]);
const LITERALS = new Set(['enum', 'const', 'default', 'required']);

/**
 * Where `server` differs from `full` otherwise than by a dropped annotation keyword; the dropped keys counted.
 * `names`: `full` is a map of names (the value of `properties`, `paths`...), whose every key must stay.
 */
function differences(
  full: unknown,
  server: unknown,
  at: string,
  dropped: Map<string, number>,
  names = false,
): string[] {
  if (Array.isArray(full)) {
    if (!Array.isArray(server) || server.length !== full.length) return [`${at}: not the same array`];
    return full.flatMap((item, i) => differences(item, server[i], `${at}/${i}`, dropped));
  }
  if (!isObject(full)) return Object.is(full, server) ? [] : [`${at}: ${String(server)} for ${String(full)}`];
  if (!isObject(server)) return [`${at}: not an object`];
  const found: string[] = [];
  for (const key of Object.keys(server))
    if (!(key in full)) found.push(`${at}/${key}: not in the full document`);
  for (const [key, value] of Object.entries(full)) {
    const path = `${at}/${key}`;
    if (!(key in server)) {
      if (names || !ANNOTATION.test(key)) found.push(`${path}: missing`);
      else dropped.set(key.startsWith('x-') ? 'x-*' : key, (dropped.get(key) ?? 0) + 1);
    } else if (names) found.push(...differences(value, server[key], path, dropped));
    else if (LITERALS.has(key)) {
      if (JSON.stringify(server[key]) !== JSON.stringify(value)) found.push(`${path}: another value`);
    } else
      found.push(...differences(value, server[key], path, dropped, NAME_MAPS.has(key) && isObject(value)));
  }
  return found;
}

describe('the server’s document', () => {
  const full = JSON.parse(readFileSync(bundledSpecJsonPath, 'utf8')) as Json;
  const server = loadBundledSpec();

  it('is the bundled spec without descriptions, summaries, examples and extensions, and under half its size', () => {
    const dropped = new Map<string, number>();
    expect(differences(full, server, '#', dropped)).toEqual([]);
    expect([...dropped.keys()].sort()).toEqual(['description', 'example', 'examples', 'summary', 'x-*']);
    expect(
      operationsOf(server).map(({ key, operation }) => `${key} ${String(operation.operationId)}`),
    ).toEqual(operationsOf(full).map(({ key, operation }) => `${key} ${String(operation.operationId)}`));
    expect(JSON.stringify(server).length).toBeLessThan(JSON.stringify(full).length / 2);
  });

  it('keeps the properties named as an annotation keyword (an issue’s description)', () => {
    const issue = (server.components as { schemas: Record<string, Json> }).schemas.Issue;
    expect((issue?.properties as Json | undefined)?.description).toEqual({ type: ['string', 'null'] });
  });
});
