// The validation memo: which operations it remembers, what a remembered request gets, and (through the real
// validator in a real Express app over HTTP) that a request seen before gets what the validator gave it.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from './errors.js';
import { type Listening, listenOnFreePort } from './listening.testSupport.js';
import { operationsApi } from './openapi.js';
import { parseQueryOncePerRequest } from './queryParser.js';
import { operationsOf } from './specDocument.js';
import { copyQuery, memoPlanOf, ValidationMemo } from './validationMemo.js';

/** A stand-in validator: counts its runs, coerces `per_page` to a number and refuses `per_page=bad`. */
function countingValidator() {
  const counter = { runs: 0 };
  const validate: RequestHandler = (req, _res, next) => {
    counter.runs++;
    const query = req.query as Record<string, unknown>;
    if (query.per_page === 'bad') return next(new Error('per_page must be an integer'));
    req.query = { ...query, per_page: Number(query.per_page ?? 20) } as unknown as Request['query'];
    next();
  };
  return { counter, validate };
}

/** Runs a middleware on a request made of `url`, `query` and `headers`; resolves with the request and error. */
async function run(
  handler: RequestHandler,
  url: string,
  query: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ req: Request; error: unknown }> {
  const req = { method: 'GET', originalUrl: url, url, query, headers } as unknown as Request;
  return await new Promise((resolve) => {
    const next: NextFunction = (error?: unknown) => resolve({ req, error });
    handler(req, {} as Response, next);
  });
}

describe('ValidationMemo', () => {
  const plan = { headers: ['sudo'] };

  it('validates a request once and gives the same request the query the validator left, as a copy', async () => {
    const { counter, validate } = countingValidator();
    const remembered = new ValidationMemo().around(validate, plan);
    const first = await run(remembered, '/api/things?per_page=5', { per_page: '5' });
    expect(first.req.query).toEqual({ per_page: 5 });
    // A handler that changes its query does not change what the next request gets.
    (first.req.query as Record<string, unknown>).per_page = 99;
    const second = await run(remembered, '/api/things?per_page=5', { per_page: '5' });
    expect(second.error).toBeUndefined();
    expect(second.req.query).toEqual({ per_page: 5 });
    expect(counter.runs).toBe(1);
  });

  it('validates again another URL, another query as read, another header parameter', async () => {
    const { counter, validate } = countingValidator();
    const remembered = new ValidationMemo().around(validate, plan);
    await run(remembered, '/api/things?per_page=5', { per_page: '5' });
    await run(remembered, '/api/things?per_page=6', { per_page: '6' });
    // The same URL with another query (a reader before the validator changed it) is another request.
    await run(remembered, '/api/things?per_page=6', { per_page: '6', search: 'x' });
    await run(remembered, '/api/things?per_page=6', { per_page: '6' }, { sudo: 'root' });
    expect(counter.runs).toBe(4);
    await run(remembered, '/api/things?per_page=6', { per_page: '6' }, { sudo: 'root' });
    expect(counter.runs).toBe(4);
  });

  it('never remembers a refused request', async () => {
    const { counter, validate } = countingValidator();
    const remembered = new ValidationMemo().around(validate, plan);
    for (let i = 0; i < 3; i++) {
      const { error } = await run(remembered, '/api/things?per_page=bad', { per_page: 'bad' });
      expect(String(error)).toContain('per_page must be an integer');
    }
    expect(counter.runs).toBe(3);
  });

  it('validates a very long URL every time', async () => {
    const { counter, validate } = countingValidator();
    const remembered = new ValidationMemo().around(validate, plan);
    const search = 'x'.repeat(3000);
    for (let i = 0; i < 2; i++) await run(remembered, `/api/things?search=${search}`, { search });
    expect(counter.runs).toBe(2);
  });

  it('forgets everything when full and keeps working', async () => {
    const { counter, validate } = countingValidator();
    const remembered = new ValidationMemo().around(validate, plan);
    for (let i = 0; i < 2100; i++) await run(remembered, `/api/things?page=${i}`, { page: String(i) });
    expect(counter.runs).toBe(2100);
    // Entries after the clear at 2048 are kept.
    await run(remembered, '/api/things?page=2099', { page: '2099' });
    expect(counter.runs).toBe(2100);
  });
});

describe('memoPlanOf', () => {
  it('remembers operations without a body or cookie parameters, keyed by their header parameters', () => {
    const operations = operationsOf(
      {
        paths: {
          '/things': {
            parameters: [{ name: 'Sudo', in: 'header', schema: { type: 'string' } }],
            get: { operationId: 'list', responses: {} },
            post: { operationId: 'create', requestBody: { content: {} }, responses: {} },
          },
          '/session': { get: { operationId: 'session', parameters: [{ name: 'sid', in: 'cookie' }] } },
        },
      },
      '/api',
    );
    const plans = Object.fromEntries(operations.map((operation) => [operation.key, memoPlanOf(operation)]));
    expect(plans).toEqual({
      'GET /api/things': { headers: ['sudo'] },
      'POST /api/things': null,
      'GET /api/session': null,
    });
  });
});

describe('copyQuery', () => {
  it('copies nested objects and arrays, and keeps a __proto__ key an own property', () => {
    const query = JSON.parse('{"a":["1",{"b":2}],"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const copy = copyQuery(query) as Record<string, unknown>;
    expect(copy).toEqual(query);
    expect(copy.a).not.toBe(query.a);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['a', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the memo in the validated API (real validator, real HTTP)', () => {
  let server: Listening;
  let base: string;
  const spec = {
    openapi: '3.1.0',
    info: { title: 'memo', version: '1' },
    servers: [{ url: '/api' }],
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          parameters: [
            { name: 'per_page', in: 'query', schema: { type: 'integer', default: 20 } },
            { name: 'archived', in: 'query', schema: { type: 'boolean' } },
            { name: 'Sudo', in: 'header', schema: { type: 'string', maxLength: 5 } },
          ],
          responses: { '200': { description: 'echo' } },
        },
      },
    },
  };

  beforeAll(async () => {
    const app = express();
    app.set('query parser', 'extended');
    parseQueryOncePerRequest(app);
    const echo = (req: Request, res: Response) => {
      const query = req.query as Record<string, unknown>;
      res.json({ query: { ...query } });
      // A handler that changes its query after answering changes nothing for the next request.
      query.per_page = 'changed';
    };
    const handlers = new Map([['listThings', echo]]);
    app.use(operationsApi({ apiSpec: spec, handlers, validateResponses: false }).middleware);
    app.use(errorHandler);
    server = await listenOnFreePort(app);
    base = `${server.origin}/api`;
  });
  afterAll(async () => {
    await server.close();
  });

  async function get(path: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}${path}`, { headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('gives a repeated request the coerced values and defaults of its first validation', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await get('/things?archived=true')).toEqual({
        status: 200,
        body: { query: { archived: true, per_page: 20 } },
      });
      expect(await get('/things?per_page=5')).toEqual({ status: 200, body: { query: { per_page: 5 } } });
    }
  });

  it('refuses a repeated bad request every time, also after a good one on the same path', async () => {
    await get('/things?per_page=7');
    for (let i = 0; i < 3; i++) {
      const refused = await get('/things?per_page=seven');
      expect(refused.status).toBe(400);
      expect(await get('/things?per_page=7', { Sudo: 'far-too-long' })).toMatchObject({ status: 400 });
    }
    expect(await get('/things?per_page=7', { Sudo: 'root' })).toEqual({
      status: 200,
      body: { query: { per_page: 7 } },
    });
  });
});
