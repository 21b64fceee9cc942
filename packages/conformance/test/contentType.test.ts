// JSON answers carry `Content-Type: application/json`, without a charset, as GitLab sends it (a widely used
// client's tests compare the header exactly; issue 26). Driven by the spec: the valid request of every read,
// and every write's answer to an empty body, are JSON with exactly that type when they have a JSON body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Target } from '../src/index.js';
import { type Answer, inParallel, operationRequests } from '../src/operationRequests.js';
import { requestCases } from '../src/requestCases.js';
import { loadSpecIndex } from '../src/specIndex.js';

const index = loadSpecIndex();
const cases = requestCases(index, () => target.config.fixtures);
const { send, urlOf } = operationRequests(index, cases, () => target);

let target: Target;

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target.close();
});

/** Whether an answer's type is JSON's, with anything after the media type (a charset) or not. */
const isJsonAnswer = (answer: Answer) => /^application\/json\b/i.test(answer.contentType ?? '');

describe('Content-Type of JSON answers', () => {
  it('is application/json without a charset, on every read and write of the spec', {
    timeout: 300_000,
  }, async () => {
    const wrong: string[] = [];
    let json = 0;
    await inParallel(index.walkable, 4, async (entry) => {
      if (entry.method === 'HEAD') return;
      const write = entry.method !== 'GET';
      // Writes as in nullBody.test.ts: a project or group that does not exist, so nothing changes.
      const base = { ...cases.baseCase(entry, 0, write), anonymous: false };
      const answer = await send(
        entry,
        write ? { ...base, contentType: 'application/json', body: '{}' } : base,
      );
      if (!isJsonAnswer(answer)) return;
      json += 1;
      if (answer.contentType !== 'application/json')
        wrong.push(`${entry.method} ${urlOf(entry, base)} ${answer.status}: ${answer.contentType}`);
    });
    expect(json).toBeGreaterThan(200);
    expect(wrong).toEqual([]);
  });

  it('is application/json on the catch-all 404 and the spec document, and the docs page still serves', async () => {
    const base = target.config.baseUrl;
    const unknown = await fetch(`${base}/api/v4/no-such-path`);
    expect([unknown.status, unknown.headers.get('content-type')]).toEqual([404, 'application/json']);
    await unknown.text();
    const spec = await fetch(`${base}/openapi.json`);
    expect(spec.status).toBe(200);
    expect(spec.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(((await spec.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
    const docs = await fetch(`${base}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    await docs.text();
  });
});
