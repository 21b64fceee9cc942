// The validators' warm-up: every operation goes through its validator, no handler runs, nothing is sent, and
// the API validates requests and responses afterwards as before (a small spec, a real Express app and real
// HTTP requests).
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from './errors.js';
import { type Listening, listenOnFreePort } from './listening.testSupport.js';
import { type OperationsApi, operationsApi } from './openapi.js';
import { parseQueryOncePerRequest } from './queryParser.js';

const THING = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' } },
  additionalProperties: false,
};

function spec(): Record<string, unknown> {
  const thing = { description: 'a thing', content: { 'application/json': { schema: THING } } };
  const notFound = {
    description: 'none',
    content: { 'application/json': { schema: { type: 'object', required: ['message'] } } },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'warm-up', version: '1' },
    servers: [{ url: '/api' }],
    paths: {
      '/things/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        get: { operationId: 'getThing', tags: ['Things'], responses: { '200': thing, '404': notFound } },
        head: { operationId: 'headThing', tags: ['Things'], responses: { '200': { description: 'ok' } } },
        put: {
          operationId: 'updateThing',
          tags: ['Things'],
          requestBody: { required: true, content: { 'application/json': { schema: THING } } },
          responses: { '200': thing },
        },
      },
      '/others': {
        get: { operationId: 'listOthers', tags: ['Others'], responses: { '200': { description: 'ok' } } },
      },
    },
  };
}

describe('warmUp', () => {
  let server: Listening;
  let base: string;
  let api: OperationsApi;
  let app: express.Express;
  const called: string[] = [];
  /** What the getThing handler answers: a body of the spec, or one that breaks it. */
  let answer: unknown = { name: 'one' };

  beforeAll(async () => {
    app = express();
    parseQueryOncePerRequest(app);
    app.use(express.json());
    const handler =
      (id: string) =>
      (_req: express.Request, res: express.Response): void => {
        called.push(id);
        res.json(answer);
      };
    const handlers = new Map(
      ['getThing', 'headThing', 'updateThing', 'listOthers'].map((id) => [id, handler(id)]),
    );
    api = operationsApi({ apiSpec: spec(), handlers, validateResponses: true });
    app.use(api.middleware);
    app.use(errorHandler);
    server = await listenOnFreePort(app);
    base = `${server.origin}/api`;
  });
  afterAll(async () => {
    await server.close();
  });

  it('runs every operation through its validator without calling a handler, each after the wait it is given', async () => {
    let waits = 0;
    await api.warmUp(app, async () => {
      waits++;
    });
    expect(called).toEqual([]);
    expect(waits).toBe(4);
  });

  it('leaves requests and responses validated as before', async () => {
    const refused = await fetch(`${base}/things/abc`);
    expect(refused.status).toBe(400);
    const served = await fetch(`${base}/things/1`);
    expect({ status: served.status, body: await served.json() }).toEqual({
      status: 200,
      body: { name: 'one' },
    });
    answer = { name: 'one', extra: true };
    const broken = await fetch(`${base}/things/1`);
    expect(broken.status).toBe(500);
    const update = await fetch(`${base}/things/1`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(update.status).toBe(400);
    expect(called).toEqual(['getThing', 'getThing']);
  });
});
