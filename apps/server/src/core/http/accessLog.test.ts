import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLog, accessLogLine, batchedLines, FILTERED, loggablePath } from './accessLog.js';
import { type Listening, listenOnFreePort } from './listening.testSupport.js';

describe('loggablePath', () => {
  it('keeps a path without a query as it is', () => {
    expect(loggablePath('/api/v4/projects/acme%2Fwebsite')).toBe('/api/v4/projects/acme%2Fwebsite');
  });

  it('replaces the values of token, password, secret and key parameters, and keeps the others', () => {
    expect(loggablePath('/api/v4/projects?private_token=glpat-abc&per_page=5&access_token=x')).toBe(
      `/api/v4/projects?private_token=${FILTERED}&per_page=5&access_token=${FILTERED}`,
    );
    expect(loggablePath('/api/v4/user?password=hunter2&sudo=7&token=t&secret_key=s')).toBe(
      `/api/v4/user?password=${FILTERED}&sudo=7&token=${FILTERED}&secret_key=${FILTERED}`,
    );
  });

  it('recognises encoded and bracketed names, and leaves undecodable ones and bare names alone', () => {
    expect(loggablePath('/x?private%5Ftoken=a&upload[token]=b&%E0%A4%A=c&token')).toBe(
      `/x?private%5Ftoken=${FILTERED}&upload[token]=${FILTERED}&%E0%A4%A=c&token`,
    );
  });
});

describe('accessLogLine', () => {
  it('names the time, method, filtered path, status and duration', () => {
    const line = accessLogLine(new Date('2026-11-28T01:02:03.456Z'), 'GET', '/p?private_token=z', 200, 3.14);
    expect(line).toBe(`2026-11-28T01:02:03.456Z GET /p?private_token=${FILTERED} 200 3.1ms\n`);
  });
});

describe('accessLog middleware', () => {
  const lines: string[] = [];
  let server: Listening;
  let origin = '';
  /** Called by /slow when a request has reached it. */
  let slowReached: () => void = () => {};

  beforeAll(async () => {
    const app = express();
    app.use(accessLog((line) => lines.push(line)));
    app.get('/slow', (_req, res) => {
      slowReached();
      setTimeout(() => {
        if (!res.destroyed) res.json({ late: true });
      }, 300);
    });
    app.get('/ok', (_req, res) => {
      res.status(201).json({ ok: true });
    });
    server = await listenOnFreePort(app);
    origin = server.origin;
  });
  afterAll(() => server.close());

  it('writes one line per answered request, with its status', async () => {
    lines.length = 0;
    await (await fetch(`${origin}/ok?private_token=secret-value`)).arrayBuffer();
    await (await fetch(`${origin}/missing`)).arrayBuffer();
    // The line is written on 'finish', which may come just after the client has read the body.
    for (let i = 0; i < 100 && lines.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\S+Z GET \/ok\?private_token=\[FILTERED\] 201 \d+\.\dms\n$/);
    expect(lines[0]).not.toContain('secret-value');
    expect(lines[1]).toMatch(/ GET \/missing 404 /);
  });

  it('writes 499 for a request whose client went away before the answer, once', async () => {
    lines.length = 0;
    const controller = new AbortController();
    // Aborted once the server has the request (a fixed wait aborted it before it arrived on a loaded machine).
    const reached = new Promise<void>((resolve) => {
      slowReached = resolve;
    });
    const request = fetch(`${origin}/slow`, { signal: controller.signal }).catch(() => undefined);
    await reached;
    controller.abort();
    await request;
    for (let i = 0; i < 500 && lines.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    // Past the handler's late answer (300 ms): still one line.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/ GET \/slow 499 /);
  });
});

describe('batchedLines', () => {
  it('writes the lines of one turn of the event loop in one chunk, in order, after the turn', async () => {
    const chunks: string[] = [];
    const lines = batchedLines((chunk) => chunks.push(chunk));
    lines.write('a\n');
    lines.write('b\n');
    expect(chunks).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks).toEqual(['a\nb\n']);
    lines.write('c\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes what is queued at once when flushed, and nothing twice', async () => {
    const chunks: string[] = [];
    const lines = batchedLines((chunk) => chunks.push(chunk));
    lines.write('last\n');
    lines.flush();
    expect(chunks).toEqual(['last\n']);
    await new Promise((resolve) => setImmediate(resolve));
    lines.flush();
    expect(chunks).toEqual(['last\n']);
  });
});
