// The spec is exactly as strict as the server (issue 17, point 4): for every operation the server implements
// (probed as in negative.test.ts), requests generated from the request schema alone — valid by the spec: the
// required parameters, then seeded random variants with each optional query parameter and body property,
// their values drawn to satisfy enums, patterns, formats, lengths and ranges (src/validValues.ts) — are sent
// against the fixture project or group. None may be refused for its shape: a 400 whose body names a
// parameter as missing, invalid or not a valid value fails the test. A refusal for the state the request
// meets (an object that does not exist, a name already taken, a branch that is protected, 401/403/404/409/
// 422) is fine: every non-2xx answer is classified and the counts printed. Every answer is validated against
// the spec (status, headers, body), and no answer is a 5xx.
//
// The security the spec documents is checked too: a read whose `security` has no anonymous entry (`{}`)
// must answer 401 without a token, and one with it must not, for the public fixture project or group.
//
// The requests never archive, delete, transfer or edit the fixture projects (CHANGES_THE_PROJECT and
// `editProject` go to a project that does not exist), create only uniquely named objects, and so tolerate a
// shared server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { inParallel, operationRequests } from '../src/operationRequests.js';
import { type Case, CHANGES_THE_PROJECT, EXISTING_BRANCH_FIELDS, requestCases } from '../src/requestCases.js';
import { type JsonObject, loadSpecIndex, type OperationEntry, resolveRef } from '../src/specIndex.js';
import { Random, validValues } from '../src/validValues.js';

const index = loadSpecIndex();
const cases = requestCases(index, () => target.config.fixtures);
const { flat, parametersOf, pathValue, requestMedia, multipart } = cases;
const { send, probe, urlOf } = operationRequests(index, cases, () => target);
const values = validValues(cases, {
  branchFields: EXISTING_BRANCH_FIELDS,
  resolve: (value) => resolveRef(index, value),
});
/** For the last variants: `branch` drawn like any name (a new branch's rules are tried too). */
const freshBranchValues = validValues(cases, {
  branchFields: new Set([...EXISTING_BRANCH_FIELDS].filter((name) => name !== 'branch')),
  resolve: (value) => resolveRef(index, value),
});

/** Variants per operation: the required fields alone, then the optional ones spread over the others. */
const VARIANTS = 5;
const PARALLEL = 4;
/** Besides CHANGES_THE_PROJECT: operations whose valid requests would rename or reconfigure the fixture. */
const ALTERS_THE_PROJECT = new Set(['editProject']);
/**
 * Fields fixed per operation, where a valid value would reach outside the test: a mirror that is enabled
 * pushes to its (made-up) remote on every change of the fixture project.
 */
const FIXED: Record<string, JsonObject> = { createRemoteMirror: { enabled: false } };

/** A 400 that is about the request's shape (GitLab's and the validator's words for a bad parameter). */
const SHAPE_WORDS =
  /is missing|is invalid|does not have a valid value|must (be|have|match|NOT|not)|is too (long|short)|can't be blank|not a valid|is blocked|are missing|at least one|can contain only|can only contain|cannot (start|end|contain)|unsupported content type|not valid JSON|percent-encoding|malformed/i;

let target: Target;
let implemented = new Set<string>();
/** Non-2xx answers by class (`404`, `400 state` …), over the whole file, printed at the end. */
const tally = new Map<string, number>();
/** One example answer per operation and class, printed with the counts. */
const examples = new Map<string, string>();

beforeAll(async () => {
  target = await openTarget();
  implemented = await probe();
  // The probe is some 200 requests: far below a minute, unless the machine is shared and loaded.
}, 600_000);
afterAll(async () => {
  const lines = [...tally.entries()].sort().map(([key, count]) => `  ${key}: ${count}`);
  console.info(`validRequests: answers by class\n${lines.join('\n')}`);
  console.info(`validRequests: examples of refusals for state\n${[...examples.values()].sort().join('\n')}`);
  await target.close();
});

/** A number from an operation's name, so each operation has its own reproducible variants. */
function seedOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}

/** A value of a query parameter as query text: arrays repeated, deepObject as `name[key]=value`. */
function appendQuery(query: URLSearchParams, parameter: JsonObject, value: unknown): void {
  const name = String(parameter.name);
  if (Array.isArray(value)) {
    if (parameter.explode === false) query.append(name, value.map(String).join(','));
    else for (const item of value) query.append(name, String(item));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) query.append(`${name}[${key}]`, String(item));
  } else {
    query.append(name, String(value));
  }
}

/** A fresh value for a path parameter other than the fixture's `id`: nothing that exists is touched. */
function freshPathValue(entry: OperationEntry, parameter: JsonObject, random: Random, n: number): string {
  const schema = flat(parameter.schema);
  const fresh = `valid_${RUN}_${n}`;
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  if (parameter.name === 'id' || !cases.typesOf(schema).has('string') || (pattern && !pattern.test(fresh)))
    return pathValue(entry, parameter, n, false);
  if (pattern && !pattern.test(fresh))
    return encodeURIComponent(String(values.value(schema, String(parameter.name), random, n)));
  return encodeURIComponent(fresh);
}

/** The form encoding of a flat body (scalars only); undefined when a value is an array or an object. */
function formBody(body: JsonObject): string | undefined {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    if (value !== null && typeof value === 'object') return undefined;
    form.append(name, String(value));
  }
  return form.toString();
}

/** The variants of an operation (see the top of the file). */
function variantsFor(entry: OperationEntry): Case[] {
  const random = new Random(seedOf(entry.operationId));
  const operationId = entry.operationId;
  const parameters = parametersOf(entry);
  const optionalQuery = parameters.filter((p) => p.in === 'query' && p.required !== true);
  const media = requestMedia(entry);
  const json = media.find((m) => m.type === 'application/json');
  const form = media.some((m) => m.type === 'application/x-www-form-urlencoded');
  const optionalBody = Object.keys((json?.schema.properties ?? {}) as JsonObject).filter(
    (name) => !((json?.schema.required as string[] | undefined) ?? []).includes(name),
  );
  const variants: Case[] = [];
  for (let v = 0; v < VARIANTS; v++) {
    const n = v + 1;
    // Variant 0 has the required fields only; each optional one is in one of the others, and at random.
    const chosen = (i: number) => v > 0 && (i % (VARIANTS - 1) === v - 1 || random.chance(0.3));
    const path: Record<string, string> = {};
    const query = new URLSearchParams();
    for (const parameter of parameters) {
      const name = String(parameter.name);
      if (parameter.in === 'path') {
        const replaced =
          name === 'id' && (CHANGES_THE_PROJECT.has(operationId) || ALTERS_THE_PROJECT.has(operationId));
        path[name] = replaced
          ? encodeURIComponent(`no-such-group-${RUN}/none`)
          : freshPathValue(entry, parameter, random, n);
      } else if (parameter.in === 'query') {
        const i = optionalQuery.indexOf(parameter);
        if (parameter.required === true || chosen(i))
          appendQuery(query, parameter, values.value(parameter.schema, name, random, n));
      }
    }
    const c: Case = { label: `variant ${v}`, path, query: query.toString() };
    if (json) {
      const include = new Set(optionalBody.filter((_, i) => chosen(i)));
      // The schema as written (allOf parts and all), not flattened: its "at least one of" rules count.
      const content = resolveRef<JsonObject>(index, entry.operation.requestBody).content as Record<
        string,
        JsonObject
      >;
      const schema = content[json.type]?.schema;
      const generator = v >= VARIANTS - 2 ? freshBranchValues : values;
      const body = { ...generator.object(schema, random, n, 0, 0, include), ...FIXED[operationId] };
      const asForm = form && v % 2 === 1 ? formBody(body) : undefined;
      if (asForm !== undefined)
        variants.push({ ...c, contentType: 'application/x-www-form-urlencoded', body: asForm });
      else variants.push({ ...c, contentType: json.type, body: JSON.stringify(body) });
    } else if (media.some((m) => m.type === 'multipart/form-data')) {
      variants.push({ ...c, ...multipart(entry, n, {}) });
    } else {
      variants.push(c);
    }
  }
  return variants;
}

function classOf(status: number, text: string): string {
  if (status < 300) return `${status}`;
  if (status === 400) return SHAPE_WORDS.test(text) ? 'shape' : '400 state';
  return `${status}`;
}

function hasAnonymousAccess(entry: OperationEntry): boolean {
  const security = (entry.operation.security ?? index.document.security ?? []) as JsonObject[];
  return security.some((requirement) => Object.keys(requirement).length === 0);
}

describe('every request valid by the spec is taken for its shape', () => {
  for (const entry of index.operations) {
    it(`${entry.operationId}: ${entry.method} ${entry.template}`, async (context) => {
      if (!implemented.has(entry.operationId)) context.skip();
      const failures: string[] = [];
      let variants: Case[];
      try {
        variants = variantsFor(entry);
      } catch (error) {
        throw new Error(`${entry.operationId}: ${String(error)}`);
      }
      await inParallel(variants, PARALLEL, async (c) => {
        const answer = await send(entry, c);
        const kind = classOf(answer.status, answer.text);
        const body = typeof c.body === 'string' ? ` ${c.body}` : '';
        const request = `${entry.method} ${urlOf(entry, c)}${body}`;
        if (answer.status >= 500 || answer.problems.length > 0 || kind === 'shape') {
          failures.push(
            `[${c.label}] ${request.slice(0, 400)}\n  → ${answer.status} ${answer.text.slice(0, 300)}${answer.problems.map((p) => `\n    ${p}`).join('')}`,
          );
        }
        if (answer.status >= 300) {
          tally.set(kind, (tally.get(kind) ?? 0) + 1);
          examples.set(
            `${entry.operationId} ${kind}`,
            `  ${entry.operationId} ${answer.status}: ${answer.text.slice(0, 120)}`,
          );
        } else {
          tally.set('2xx', (tally.get('2xx') ?? 0) + 1);
        }
      });

      // The documented security, for reads of the public fixture project or group.
      if (entry.method === 'GET' && /^\/(projects|groups)\/\{id\}/.test(entry.template)) {
        const [first] = variants;
        if (first) {
          const answer = await send(entry, { ...first, anonymous: true });
          if (answer.status === 401 && hasAnonymousAccess(entry))
            failures.push(`anonymous: 401, but the spec's security allows anonymous access`);
          if (answer.status !== 401 && answer.status < 500 && !hasAnonymousAccess(entry))
            failures.push(`anonymous: ${answer.status} (served), but the spec's security demands a token`);
        }
      }
      expect(failures, entry.operationId).toEqual([]);
    });
  }
});
