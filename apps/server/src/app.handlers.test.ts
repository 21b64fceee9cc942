// The areas' handlers against the bundled spec: the start check passes for the real areas, and refuses the
// real areas with one handler taken away or one added.
import { describe, expect, it } from 'vitest';
import { AREAS } from './app.js';
import { SCIM_BASE_PATH, scimArea } from './areas/scim/index.js';
import type { ServerContext } from './core/context.js';
import { apiDocumentFor, hasOwnServers, loadBundledSpec, operationIdsOf } from './core/http/openapi.js';
import { handlersByOperation } from './core/http/operations.js';

const spec = loadBundledSpec();
const operationIds = [
  ...operationIdsOf(apiDocumentFor(spec, '/api/v4', (path, item) => !hasOwnServers(path, item))),
  ...operationIdsOf(apiDocumentFor(spec, SCIM_BASE_PATH, hasOwnServers)),
];
// Building the handlers only closes over the context; none is called here.
const context = {} as ServerContext;
const areaHandlers = (): { name: string; handlers: Record<string, unknown> }[] =>
  [...AREAS, scimArea].map((area) => ({ name: area.name, handlers: { ...area.handlers(context) } }));

describe('the areas’ handlers', () => {
  it('serve every operation of the spec, each once', () => {
    const handlers = handlersByOperation(operationIds, areaHandlers());
    expect(handlers.size).toBe(operationIds.length);
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('refuse to start without the handler of one operation, or with one of no operation', () => {
    const withoutOne = areaHandlers();
    const badges = withoutOne.find((area) => area.name === 'badges');
    if (!badges) throw new Error('no badges area');
    delete badges.handlers.deleteProjectBadge;
    expect(() => handlersByOperation(operationIds, withoutOne)).toThrow(
      /operations without a handler: deleteProjectBadge$/,
    );
    const withExtra = areaHandlers();
    withExtra.push({ name: 'stray', handlers: { deleteProjectBadges: () => {} } });
    expect(() => handlersByOperation(operationIds, withExtra)).toThrow(/deleteProjectBadges \(stray\)/);
  });
});
