// The routers outside the API (docs, uploads, images, avatars) are made by the first request that reaches them,
// not at start (createApp mounts them with madeOnFirstUse after the API): an API request never makes them.
import type { AddressInfo } from 'node:net';
import express, { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeOnFirstUse } from './app.js';

let made = 0;
let origin: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.get('/api/v4/version', (_req, res) => {
    res.json({ version: 'test' });
  });
  app.use(
    madeOnFirstUse(() => {
      made++;
      const router = Router();
      router.get('/docs', (_req, res) => {
        res.send('docs');
      });
      return router;
    }),
  );
  app.use((_req, res) => {
    res.status(404).json({ message: '404 Not Found' });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

describe('madeOnFirstUse', () => {
  it('makes its handler on the first request that reaches it, once, and never for the requests answered before', async () => {
    expect((await fetch(`${origin}/api/v4/version`)).status).toBe(200);
    expect(made).toBe(0);
    expect(await (await fetch(`${origin}/docs`)).text()).toBe('docs');
    expect(made).toBe(1);
    expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
    expect(await (await fetch(`${origin}/docs`)).text()).toBe('docs');
    expect(made).toBe(1);
  });
});
