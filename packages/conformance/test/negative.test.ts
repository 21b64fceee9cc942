// Bad input never answers 5xx (issue 8, point 7): for every operation the server implements, requests built
// from the bundled spec with one thing wrong each (wrong types, missing and unknown fields, over-long and
// control-character strings, huge numbers, malformed JSON, wrong content types, malformed %-encoding in the
// path and the query, truncated multipart bodies). Every answer must be below 500 and documented for its
// operation, its body valid for that status (the Error shape for 4xx). The requests carry the
// administrator's token, so they get past authentication to the validation and the services.
//
// Which operations are implemented is probed, so new ones are picked up without editing this file: an
// anonymous, valid request for a project or group that does not exist reaches the operation's own checks
// (401, or `404 Project Not Found`) where there is a route, and the server's catch-all `404 Not Found`
// where there is none (a 500 on a server that validates responses, when the operation documents no 404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Target } from '../src/index.js';
import { inParallel, operationRequests } from '../src/operationRequests.js';
import { type Case, requestCases } from '../src/requestCases.js';
import { type JsonObject, loadSpecIndex, type OperationEntry } from '../src/specIndex.js';
import { sampleOf } from '../src/volume.js';

const index = loadSpecIndex();
/** Valid requests from the spec (src/requestCases.ts), against the fixtures of the target. */
const cases = requestCases(index, () => target.config.fixtures);
const { typesOf, parametersOf, requestMedia, baseCase, multipart } = cases;
/** Sending them, validating the answers, and the probe (src/operationRequests.ts). */
const { send, probe } = operationRequests(index, cases, () => target);

/**
 * Cases per operation at most: `pnpm test:full` sends the first 120; `pnpm test` 40 of them, spread over the
 * list (the valid request and every kind of wrong input among them, a different share for each operation).
 */
const MAX_CASES = 120;
const SAMPLED_CASES = 40;
/** Requests of one operation in flight at once. */
const PARALLEL = 4;
const LONG = 'a'.repeat(100_000);
/**
 * Shorter in a URL: Node's HTTP server refuses request lines over 16 KiB (431) before any application sees
 * them, and a list repeats its query in each of its `Link` header's four links.
 */
const LONG_IN_URL = 'a'.repeat(2_000);
/** NUL, another C0 control, and a lone UTF-16 surrogate (not encodable as UTF-8). */
const CONTROL = ['a\u0000b', '\u0001', 'a\ud800b'];
/** Numbers no integer parameter takes, as JSON literals (also sent as query and path text). */
const HUGE = ['1e30', '99999999999999999999999', '-1', 'NaN'];
/** Malformed percent-encoding: an overlong `/`, a lone `%`, NUL, an encoded surrogate, a cut escape. */
const BAD_ESCAPES = ['%C0%AF%FF', '%', '%00', '%ED%A0%80', 'a%E0%A4%A'];

let target: Target;
/** The operations the server implements, by operationId (filled by the probe). */
let implemented = new Set<string>();

beforeAll(async () => {
  target = await openTarget();
  implemented = await probe();
  // The probe is a request per operation: far below a minute, unless the machine is shared and loaded.
}, 600_000);
afterAll(async () => {
  await target.close();
});

/* ------------------------------------------------------------------------------------------------ */
/* The cases                                                                                        */
/* ------------------------------------------------------------------------------------------------ */

const RAW = '\u0000raw\u0000';

/** `object` as JSON text with `literal` (a number JSON.stringify cannot write) as the value of `key`. */
function jsonWith(object: JsonObject, key: string, literal: string): string {
  return JSON.stringify({ ...object, [key]: RAW }).replace(JSON.stringify(RAW), literal);
}

function wrongTypeFor(types: Set<string>): unknown {
  if (types.has('string')) return { not: 'a string' };
  if (types.has('object')) return 'not an object';
  if (types.has('array')) return 'not an array';
  if (types.has('boolean')) return 'maybe';
  return 'not a number';
}

function casesFor(entry: OperationEntry): Case[] {
  let n = 0;
  const base = (): Case => baseCase(entry, ++n);
  const cases: Case[] = [base()];
  const with_ = (label: string, change: Partial<Case>): Case => ({ ...base(), label, ...change });

  // The path: every parameter malformed, too long, with control characters, or a huge number.
  for (const parameter of parametersOf(entry).filter((p) => p.in === 'path')) {
    const name = String(parameter.name);
    const at = (value: string, label: string) => {
      const c = base();
      cases.push({ ...c, label: `path ${name} ${label}`, path: { ...c.path, [name]: value } });
    };
    for (const bad of BAD_ESCAPES) at(bad, `malformed ${bad}`);
    at(LONG_IN_URL, 'over-long');
    at('a%01b', 'control character');
    if (typesOf(parameter.schema).has('integer')) for (const huge of HUGE) at(huge, huge);
  }

  // The query: each parameter of a wrong type, huge, malformed, with control characters; an unknown one.
  const queryParameters = parametersOf(entry).filter((p) => p.in === 'query');
  for (const parameter of queryParameters.slice(0, 6)) {
    const name = String(parameter.name);
    const at = (value: string, label: string) => {
      const c = base();
      cases.push({ ...c, label: `query ${name} ${label}`, query: `${c.query}&${name}=${value}` });
    };
    const types = typesOf(parameter.schema);
    if (types.has('integer') || types.has('number')) for (const huge of HUGE) at(huge, huge);
    if (types.has('integer') || types.has('boolean')) at('abc', 'wrong type');
    at(BAD_ESCAPES[0] ?? '', 'malformed');
    at('%00', 'NUL');
    at(LONG_IN_URL, 'over-long');
  }
  cases.push(with_('query malformed name', { query: `${base().query}&%E0%A4%A=1` }));
  cases.push(with_('query unknown parameter', { query: `${base().query}&neg_unknown=1` }));

  // The body: malformed JSON, other content types, and each field wrong.
  const media = requestMedia(entry);
  const json = media.find((m) => m.type === 'application/json');
  const writes = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(entry.method);
  if (writes) {
    const json_ = 'application/json';
    for (const text of ['{"', '', 'null', '[]', '"text"', '{"a":1e99999}'])
      cases.push(with_(`JSON body ${JSON.stringify(text)}`, { contentType: json_, body: text }));
    cases.push(with_('text/plain body', { contentType: 'text/plain', body: 'hello' }));
    cases.push(with_('XML body', { contentType: 'application/xml', body: '<a/>' }));
    cases.push(
      with_('form body with NUL', { contentType: 'application/x-www-form-urlencoded', body: 'a=%00' }),
    );
  }
  if (json) {
    const valid = JSON.parse(String(base().body)) as JsonObject;
    const properties = (json.schema.properties ?? {}) as Record<string, JsonObject>;
    const body = (label: string, text: string) =>
      cases.push(with_(label, { contentType: json.type, body: text }));
    body('unknown field', JSON.stringify({ ...valid, neg_unknown_field: 1 }));
    for (const name of (json.schema.required as string[] | undefined) ?? []) {
      const { [name]: _left, ...rest } = valid;
      body(`missing ${name}`, JSON.stringify(rest));
    }
    for (const [name, schema] of Object.entries(properties)) {
      const types = typesOf(schema);
      body(`${name} wrong type`, JSON.stringify({ ...valid, [name]: wrongTypeFor(types) }));
      if (types.has('string')) {
        body(`${name} over-long`, JSON.stringify({ ...valid, [name]: LONG }));
        for (const text of CONTROL)
          body(`${name} ${JSON.stringify(text)}`, JSON.stringify({ ...valid, [name]: text }));
      }
      if (types.has('integer') || types.has('number'))
        for (const huge of HUGE) body(`${name} ${huge}`, jsonWith(valid, name, huge));
    }
  }
  if (media.some((m) => m.type === 'multipart/form-data')) {
    const whole = multipart(entry, ++n, {});
    cases.push(
      with_('multipart truncated', {
        ...whole,
        body: whole.body.subarray(0, Math.floor(whole.body.length / 2)),
      }),
    );
    cases.push(
      with_('multipart without its closing boundary', { ...whole, body: whole.body.subarray(0, -4) }),
    );
    cases.push(with_('multipart without boundary', { contentType: 'multipart/form-data', body: whole.body }));
    const schema = media.find((m) => m.type === 'multipart/form-data')?.schema ?? {};
    for (const name of Object.keys((schema.properties ?? {}) as JsonObject)) {
      cases.push(with_(`multipart ${name} NUL`, multipart(entry, ++n, { [name]: 'a\u0000b' })));
      cases.push(with_(`multipart ${name} over-long`, multipart(entry, ++n, { [name]: LONG })));
    }
  }
  const [valid, ...wrong] = cases.slice(0, MAX_CASES);
  return [valid as Case, ...sampleOf(wrong, entry.operationId, SAMPLED_CASES - 1)];
}

/* ------------------------------------------------------------------------------------------------ */
/* The test                                                                                         */
/* ------------------------------------------------------------------------------------------------ */

describe('bad input never answers 5xx', () => {
  it("finds every operation of document 1 implemented (the probe's own check)", () => {
    const paths = Object.keys(index.document.paths as JsonObject);
    const document1 = index.operations.filter(
      (entry) => paths.indexOf(entry.template) < paths.indexOf('/groups'),
    );
    expect(document1).toHaveLength(44);
    expect(
      document1.filter((entry) => !implemented.has(entry.operationId)).map((e) => e.operationId),
    ).toEqual([]);
  });

  for (const entry of index.walkable) {
    it(`${entry.operationId}: ${entry.method} ${entry.template}`, async (context) => {
      if (!implemented.has(entry.operationId)) context.skip();
      const failures: string[] = [];
      await inParallel(casesFor(entry), PARALLEL, async (c) => {
        const answer = await send(entry, c);
        if (answer.status >= 500 || answer.problems.length > 0)
          failures.push(
            `[${c.label}] → ${answer.status} ${answer.text.slice(0, 300)}${answer.problems.map((p) => `\n    ${p}`).join('')}`,
          );
      });
      expect(failures, entry.operationId).toEqual([]);
    });
  }
});
