import { get } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonWithoutCharset } from './jsonContentType.js';
import { type Listening, listenOnFreePort } from './listening.testSupport.js';

/** The same app without the step: what Express itself answers, for the length and ETag. */
function makeApp(withStep: boolean) {
  const app = express();
  if (withStep) jsonWithoutCharset(app);
  app.get('/object', (_req, res) => {
    res.json({ name: 'été', list: [1, 2] });
  });
  app.get('/created', (_req, res) => {
    res.status(201).json([{ id: 1 }]);
  });
  app.get('/scim', (_req, res) => {
    res.type('application/scim+json').json({ schemas: [] });
  });
  app.get('/typed', (_req, res) => {
    res.type('application/json').json({ typed: true });
  });
  app.get('/nothing', (_req, res) => {
    res.json(undefined);
  });
  app.get('/sent', (_req, res) => {
    res.send({ via: 'send' });
  });
  return app;
}

const servers: Listening[] = [];
let withStep = '';
let plain = '';

beforeAll(async () => {
  const listen = async (app: ReturnType<typeof express>) => {
    const server = await listenOnFreePort(app);
    servers.push(server);
    return server.origin;
  };
  withStep = await listen(makeApp(true));
  plain = await listen(makeApp(false));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe('jsonWithoutCharset', () => {
  it.each(['/object', '/created', '/typed', '/sent'])(
    'answers %s as application/json without a charset, with the body, length and ETag Express gives',
    async (path) => {
      const [ours, express] = await Promise.all([fetch(`${withStep}${path}`), fetch(`${plain}${path}`)]);
      expect(ours.headers.get('content-type')).toBe('application/json');
      expect(express.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(ours.status).toBe(express.status);
      expect(ours.headers.get('content-length')).toBe(express.headers.get('content-length'));
      expect(ours.headers.get('etag')).toBe(express.headers.get('etag'));
      expect(await ours.text()).toBe(await express.text());
    },
  );

  it("keeps Express's charset on another JSON type (SCIM's)", async () => {
    const response = await fetch(`${withStep}/scim`);
    expect(response.headers.get('content-type')).toBe('application/scim+json; charset=utf-8');
    expect(await response.json()).toEqual({ schemas: [] });
  });

  it('answers an undefined value with an empty body, as Express does', async () => {
    const [ours, express] = await Promise.all([fetch(`${withStep}/nothing`), fetch(`${plain}/nothing`)]);
    expect(ours.status).toBe(express.status);
    expect(await ours.text()).toBe('');
    expect(ours.headers.get('content-type')).toBe('application/json');
  });

  it('answers HEAD with the headers and no body, and a matching If-None-Match with 304', async () => {
    const head = await fetch(`${withStep}/object`, { method: 'HEAD' });
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(await head.text()).toBe('');
    const etag = head.headers.get('etag') ?? '';
    // node:http, which sends the header alone (fetch adds a Cache-Control that makes the request not fresh).
    const status = await new Promise<number | undefined>((resolve, reject) => {
      get(`${withStep}/object`, { headers: { 'If-None-Match': etag } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject);
    });
    expect(status).toBe(304);
  });
});
