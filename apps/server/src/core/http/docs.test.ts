// The docs page and the bundled spec as the application serves them: compressed when the client accepts it
// (br, else gzip), byte for byte the built files once decompressed, with validators that turn a repeated
// request into a 304.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { docsHtmlPath } from '@collab/docs';
import { bundledSpecJsonPath, bundledSpecYamlPath } from '@collab/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from '../../appServer.testSupport.js';

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer('docs', { fixtures: { users: [], groups: [], projects: [] } });
});
afterAll(async () => {
  await server.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

// node:http rather than fetch: fetch decompresses bodies itself and hides what travelled.
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.origin}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const FILES = [
  { path: '/docs', file: docsHtmlPath, type: 'text/html' },
  { path: '/openapi.json', file: bundledSpecJsonPath, type: 'application/json' },
  { path: '/openapi.yaml', file: bundledSpecYamlPath, type: 'application/yaml' },
];

describe.each(FILES)('$path', ({ path, file, type }) => {
  const built = readFileSync(file);

  it('is sent compressed with br, else gzip, and as it is without Accept-Encoding', async () => {
    const br = await get(path, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain(type);
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    // A fifth of the file or less: these are megabytes of repetitive text.
    expect(br.body.length).toBeLessThan(built.length / 4);
    expect(brotliDecompressSync(br.body).equals(built)).toBe(true);

    const gzip = await get(path, { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body.length).toBeLessThan(built.length / 3);
    expect(gunzipSync(gzip.body).equals(built)).toBe(true);

    const plain = await get(path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(built)).toBe(true);

    // Each encoding is its own representation, with its own entity tag.
    const tags = new Set([br.headers.etag, gzip.headers.etag, plain.headers.etag]);
    expect(tags.size).toBe(3);
  });

  it('answers 304 to a client whose copy is current, by ETag or by date', async () => {
    const first = await get(path, { 'Accept-Encoding': 'gzip' });
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(new Date(lastModified).getTime()).toBeGreaterThan(0);

    const byTag = await get(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': etag });
    expect(byTag.status).toBe(304);
    expect(byTag.body.length).toBe(0);
    expect(byTag.headers.etag).toBe(etag);
    const byDate = await get(path, { 'Accept-Encoding': 'gzip', 'If-Modified-Since': lastModified });
    expect(byDate.status).toBe(304);

    // Another representation's tag, or a stale one, gets the whole body.
    const otherEncoding = await get(path, { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(otherEncoding.status).toBe(200);
    const stale = await get(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': '"stale"' });
    expect(stale.status).toBe(200);
    expect(gunzipSync(stale.body).equals(built)).toBe(true);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await get(path, { 'Accept-Encoding': 'br' }, 'HEAD');
    const full = await get(path, { 'Accept-Encoding': 'br' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.headers.etag).toBe(full.headers.etag);
  });
});
