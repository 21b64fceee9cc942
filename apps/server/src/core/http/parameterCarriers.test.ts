// Parameter carriers: the index of what each operation declares, and the middleware in the operations' steps
// (before the real validator) (a small spec, a real Express app and real HTTP requests).
import { request } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from './errors.js';
import { type Listening, listenOnFreePort } from './listening.testSupport.js';
import { operationsApi } from './openapi.js';
import { indexOperations, serializeParameter, topLevelName } from './parameterCarriers.js';
import { parseQueryOncePerRequest } from './queryParser.js';
import { operationsOf } from './specDocument.js';

const THING = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    level: { type: 'integer' },
    enabled: { type: 'boolean' },
    upload: { type: 'object', properties: { url: { type: 'string' }, http_method: { type: 'string' } } },
    tags: { type: 'array', items: { type: 'string' } },
    attributes: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

function spec(): Record<string, unknown> {
  const echo = { '200': { description: 'echo' } };
  return {
    openapi: '3.1.0',
    info: { title: 'carriers', version: '1' },
    servers: [{ url: '/api' }],
    security: [{ token: [] }],
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'query', name: 'private_token' } },
      schemas: { Thing: THING, Extra: { properties: { note: { type: 'string' } } } },
      parameters: { PerPage: { name: 'per_page', in: 'query', schema: { type: 'integer' } } },
      requestBodies: {
        Thing: {
          required: true,
          content: {
            'application/json': {
              schema: {
                allOf: [{ $ref: '#/components/schemas/Thing' }, { $ref: '#/components/schemas/Extra' }],
              },
            },
            'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/Thing' } },
          },
        },
      },
    },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          parameters: [
            { $ref: '#/components/parameters/PerPage' },
            { name: 'search', in: 'query', schema: { type: 'string' } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          ],
          responses: echo,
        },
        post: {
          operationId: 'createThing',
          requestBody: { $ref: '#/components/requestBodies/Thing' },
          responses: echo,
        },
      },
      '/things/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        put: {
          operationId: 'uploadThing',
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['file'],
                  properties: { file: { type: 'string', format: 'binary' }, name: { type: 'string' } },
                },
              },
            },
          },
          responses: echo,
        },
        delete: { operationId: 'deleteThing', responses: echo },
      },
    },
  };
}

describe('indexOperations', () => {
  it('indexes every operation by method and base path, with its query names and body properties', () => {
    const index = indexOperations(spec(), operationsOf(spec(), '/api'));
    expect([...index.keys()].sort()).toEqual([
      'DELETE /api/things/{id}',
      'GET /api/things',
      'POST /api/things',
      'PUT /api/things/{id}',
    ]);
    const list = index.get('GET /api/things');
    expect([...(list?.query ?? [])].sort()).toEqual(['per_page', 'search', 'tags']);
    expect(list?.body).toBeUndefined();
    const create = index.get('POST /api/things');
    expect(create?.query.size).toBe(0);
    // Through the requestBody $ref, the schema $ref and allOf, over both media types.
    expect([...(create?.body ?? [])].sort()).toEqual([
      'attributes',
      'enabled',
      'level',
      'name',
      'note',
      'tags',
      'upload',
    ]);
    expect(create?.mediaType).toBe('application/x-www-form-urlencoded');
    expect(index.get('PUT /api/things/{id}')?.mediaType).toBe('multipart/form-data');
    expect(index.get('DELETE /api/things/{id}')?.query.size).toBe(0);
  });
});

describe('query pairs', () => {
  it('names the parameter a pair belongs to, decoded as the query parser decodes it', () => {
    expect(topLevelName('upload[url]=https%3A%2F%2Fx')).toBe('upload');
    expect(topLevelName('upload%5Burl%5D=x')).toBe('upload');
    expect(topLevelName('tags[]=a')).toBe('tags');
    expect(topLevelName('push_access_level=40')).toBe('push_access_level');
    expect(topLevelName('flag')).toBe('flag');
    expect(topLevelName('my+name=1')).toBe('my name');
    expect(topLevelName('bad%E0%A4%A=1')).toBe('bad%E0%A4%A');
    expect(topLevelName('[x]=1')).toBe('[x]');
  });

  it('serializes body values in the forms the query parser reads back', () => {
    expect(serializeParameter('search', 'a b&c')).toEqual(['search=a%20b%26c']);
    expect(serializeParameter('per_page', 2)).toEqual(['per_page=2']);
    expect(serializeParameter('flag', false)).toEqual(['flag=false']);
    expect(serializeParameter('tags', ['a', 'b'])).toEqual(['tags%5B%5D=a', 'tags%5B%5D=b']);
    expect(serializeParameter('custom_attributes', { role: 'x' })).toEqual(['custom_attributes%5Brole%5D=x']);
    expect(serializeParameter('vars', [{ key: 'A', value: '1' }])).toEqual([
      'vars%5B0%5D%5Bkey%5D=A',
      'vars%5B0%5D%5Bvalue%5D=1',
    ]);
    expect(serializeParameter('gone', null)).toEqual([]);
  });
});

describe('the middleware in the validator chain', () => {
  let server: Listening;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.set('query parser', 'extended');
    // As in the app: req.query parsed once and settable, which parameterCarriers needs when it rewrites the URL.
    parseQueryOncePerRequest(app);
    app.use(express.json());
    app.use(express.urlencoded({ extended: true }));
    const echo = (req: express.Request, res: express.Response) => {
      const files = (req as { files?: { fieldname: string }[] }).files?.map((file) => file.fieldname);
      res.setHeader('X-Original-Url', req.originalUrl);
      res.json({
        query: req.query,
        body: req.body ?? null,
        contentType: req.headers['content-type'] ?? null,
        files,
      });
    };
    const handlers = new Map(
      ['listThings', 'createThing', 'uploadThing', 'deleteThing'].map((id) => [id, echo]),
    );
    app.use(operationsApi({ apiSpec: spec(), handlers, validateResponses: false }).middleware);
    app.use(errorHandler);
    server = await listenOnFreePort(app);
    base = `${server.origin}/api`;
  });
  afterAll(async () => {
    await server.close();
  });

  async function send(path: string, init: RequestInit = {}) {
    const response = await fetch(`${base}${path}`, init);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const json = { 'Content-Type': 'application/json' };

  /** A GET of a path sent exactly as given (fetch %-encodes a quote in the query). */
  async function getRaw(path: string) {
    const { port } = new URL(server.origin);
    return await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const sent = request({ host: '127.0.0.1', port, path: `/api${path}` }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      });
      sent.on('error', reject);
      sent.end();
    });
  }

  /** A GET with a body, which fetch refuses to send. */
  async function getWithBody(path: string, headers: Record<string, string>, body: string) {
    return await new Promise<{ status: number; body: Record<string, unknown>; originalUrl: unknown }>(
      (resolve, reject) => {
        const length = String(Buffer.byteLength(body));
        const options = { method: 'GET', headers: { ...headers, 'Content-Length': length } };
        const sent = request(`${base}${path}`, options, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: JSON.parse(text),
              originalUrl: response.headers['x-original-url'],
            }),
          );
        });
        sent.on('error', reject);
        sent.end(body);
      },
    );
  }

  it('moves a write’s query parameters into a form body, coerced as form fields, the token staying', async () => {
    const result = await send('/things?name=a&level=40&enabled=true&private_token=t', { method: 'POST' });
    expect(result).toEqual({
      status: 200,
      body: {
        query: { private_token: 't' },
        body: { name: 'a', level: 40, enabled: true },
        contentType: 'application/x-www-form-urlencoded',
      },
    });
  });

  it('takes a JSON Content-Type with no body, an empty body or {} plus the query', async () => {
    for (const body of [undefined, '', '{}']) {
      const result = await send('/things?name=b&level=30', { method: 'POST', headers: json, body });
      expect(result.status).toBe(200);
      expect(result.body.body).toEqual({ name: 'b', level: 30 });
      expect(result.body.query).toEqual({});
    }
  });

  it('keeps bracket and array forms, and the body wins on a name given twice', async () => {
    const result = await send(
      '/things?name=query&level=10&upload[url]=https%3A%2F%2Fq.example&tags[]=x&tags[]=y&attributes[team]=red',
      {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'body', upload: { url: 'https://b.example' } }),
      },
    );
    expect(result.status).toBe(200);
    expect(result.body.body).toEqual({
      name: 'body',
      level: 10,
      upload: { url: 'https://b.example' },
      tags: ['x', 'y'],
      attributes: { team: 'red' },
    });
  });

  it('merges a form body with the query', async () => {
    const result = await send('/things?level=20&enabled=false', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=form&level=25',
    });
    expect(result.status).toBe(200);
    expect(result.body.body).toEqual({ name: 'form', level: 25, enabled: false });
  });

  it('ignores names the operation does not take (as Grape), and refuses a value of the wrong type', async () => {
    const result = await send('/things?name=c&colour=blue', { method: 'POST', headers: json });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ query: {}, body: { name: 'c' } });
    const wrongType = await send('/things?name=c&level=high', { method: 'POST' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatch(/level/);
  });

  it('says which parameter is missing when a JSON Content-Type comes with nothing at all', async () => {
    const result = await send('/things', { method: 'POST', headers: json });
    expect(result).toEqual({ status: 400, body: { error: 'name is missing' } });
  });

  it('adds the query to multipart fields', async () => {
    const form = new FormData();
    form.append('file', new Blob(['data']), 'data.bin');
    form.append('name', 'from-form');
    const result = await send('/things/7?name=from-query', { method: 'PUT', body: form });
    expect(result.status).toBe(200);
    expect(result.body.body).toMatchObject({ name: 'from-form' });
    expect(result.body.files).toEqual(['file']);
    const queryOnly = new FormData();
    queryOnly.append('file', new Blob(['data']), 'data.bin');
    const fromQuery = await send('/things/7?name=only-query', { method: 'PUT', body: queryOnly });
    expect(fromQuery.body.body).toMatchObject({ name: 'only-query' });
  });

  it('moves a read’s body fields into the query (body wins), coerced as query parameters', async () => {
    const result = await getWithBody(
      '/things?search=query&per_page=5',
      json,
      JSON.stringify({ search: 'body', tags: ['a', 'b'], unrelated: 1 }),
    );
    expect(result.status).toBe(200);
    expect(result.body.query).toEqual({ search: 'body', per_page: 5, tags: ['a', 'b'] });
    // What reads the URL as sent (the pagination links) sees the parameters the body gave.
    expect(result.originalUrl).toBe('/api/things?per_page=5&search=body&tags%5B%5D=a&tags%5B%5D=b');
    const form = await getWithBody(
      '/things',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      'per_page=3',
    );
    expect(form.body.query).toEqual({ per_page: 3 });
    const plain = await send('/things?per_page=2');
    expect(plain.body.query).toEqual({ per_page: 2 });
  });

  it('refuses a read’s body field of the wrong type as it refuses the query parameter', async () => {
    const result = await getWithBody('/things', json, JSON.stringify({ per_page: 'x' }));
    expect(result.status).toBe(400);
    expect(result.body.error).toMatch(/per_page/);
  });

  // The validator's own query checks, as shipped; `+` (a space) is given to it as `%20` (grapeParameters).
  it('keeps the validator’s query checks (reserved characters as url.parse leaves them); unknown names go', async () => {
    expect((await send('/things')).body.query).toEqual({});
    expect((await send('/things?')).body.query).toEqual({});
    // GitLab ignores a parameter its operation does not declare: grapeParameters drops it before validation.
    const unknown = await send('/things?per_page=2&colour=red');
    expect(unknown.status).toBe(200);
    expect(unknown.body.query).toEqual({ per_page: 2 });
    // A reserved character sent as it is refuses the request; %-encoded it is the value.
    const raw = await send('/things?search=a:b');
    expect(raw.status).toBe(400);
    expect(raw.body.error).toMatch(/search.*url encoded/);
    expect((await send('/things?search=a%3Ab')).body.query).toEqual({ search: 'a:b' });
    // `+` is a space. Sent as they are, an apostrophe is reserved and a double quote is not (the checked
    // query is url.parse's, which leaves both as they are).
    expect((await send('/things?search=a+b&per_page=3')).body.query).toEqual({ search: 'a b', per_page: 3 });
    const apostrophe = await getRaw("/things?search=it's");
    expect(apostrophe.status).toBe(400);
    expect(apostrophe.body.error).toMatch(/search.*url encoded/);
    const quote = await getRaw('/things?search=a"b');
    expect(quote.status).toBe(200);
    expect(quote.body.query).toEqual({ search: 'a"b' });
  });
});
