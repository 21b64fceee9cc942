// Parameters are read as GitLab reads them, on every operation the server implements (issue 17, point 1),
// driven by the spec alone: every boolean parameter with each of Grape's spellings (in `pnpm test` two of
// each truth value per parameter, different ones for each; all of them in `pnpm test:full`), in the query
// string and as a JSON string; `null` for every optional property of every JSON body (and refused for a
// required one); an empty value for every optional query parameter; an unknown query parameter; doubled
// slashes in the path; a negative integer ID. Each variant is sent beside the valid request it changes
// (src/requestCases.ts) and must get the same kind of answer: never a refusal that names the parameter, never
// a 5xx, and every answer as the spec documents it. A validator refusal comes before any state is read, so an
// answer that is not a 400 naming the parameter shows the value was read. Then the examples of the issue, end
// to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { type Answer, inParallel, operationRequests } from '../src/operationRequests.js';
import { type Case, requestCases } from '../src/requestCases.js';
import { type JsonObject, loadSpecIndex, type OperationEntry } from '../src/specIndex.js';
import { sampleOf } from '../src/volume.js';
import { callAs } from './callAs.js';

const index = loadSpecIndex();
const cases = requestCases(index, () => target.config.fixtures);
const { typesOf, parametersOf, requestMedia, baseCase } = cases;
const { send, probe, urlOf } = operationRequests(index, cases, () => target);

const TRUE_SPELLINGS = [
  '1',
  'on',
  'On',
  'ON',
  't',
  'T',
  'true',
  'True',
  'TRUE',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
];
const FALSE_SPELLINGS = [
  '0',
  'off',
  'Off',
  'OFF',
  'f',
  'F',
  'false',
  'False',
  'FALSE',
  'n',
  'N',
  'no',
  'No',
  'NO',
];
/**
 * Spellings of each truth value per parameter in `pnpm test`, a different pair for each parameter so that
 * the run sends every spelling somewhere; `pnpm test:full` sends all of them for every parameter.
 */
const SPELLINGS_SAMPLE = 2;
const PARALLEL = 6;
/**
 * A test below sends hundreds of requests (listProjects: 15 booleans in 28 spellings each). On a seeded server
 * of a loaded machine that passed the 30 s default (collab-conformance run, 2026-11-26), so these get 3 min.
 */
const WALK_TIMEOUT = 180_000;

let target: Target;
let implemented = new Set<string>();

beforeAll(async () => {
  target = await openTarget();
  implemented = await probe();
  // The probe is a request per operation: far below a minute, unless the machine is shared and loaded.
}, 600_000);
afterAll(async () => {
  await target.close();
});

/** Every case gets its own number, so that writes that create something never collide. */
let counter = 1000;
const base = (entry: OperationEntry): Case => baseCase(entry, ++counter);

function withQuery(c: Case, pair: string): Case {
  return { ...c, query: c.query ? `${c.query}&${pair}` : pair };
}

/** The parameter-error text of an answer (`{"error": "name is invalid: …"}`), '' for any other answer. */
function parameterError(answer: Answer): string {
  if (answer.status !== 400) return '';
  try {
    const body = JSON.parse(answer.text) as { error?: unknown };
    return typeof body.error === 'string' ? body.error : '';
  } catch {
    return '';
  }
}

/** The answer refuses the request for `name` itself: a 400 whose error names it. */
function refusedFor(answer: Answer, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^a-z_])${escaped}([^a-z_]|$)`).test(parameterError(answer));
}

/** What is wrong with an answer to a variant that the server must read like the valid request. */
function problemsOf(label: string, answer: Answer, name: string): string[] {
  const problems = answer.problems.map((problem) => `[${label}] ${problem}`);
  if (answer.status >= 500) problems.push(`[${label}] → ${answer.status} ${answer.text.slice(0, 200)}`);
  if (refusedFor(answer, name)) problems.push(`[${label}] refused for ${name}: ${answer.text.slice(0, 200)}`);
  return problems;
}

const queryParameters = (entry: OperationEntry) => parametersOf(entry).filter((p) => p.in === 'query');
const isBoolean = (schema: unknown) => {
  const types = typesOf(schema);
  return types.size === 1 && types.has('boolean');
};

/** The JSON body's schema of an operation and its valid body, when it takes one. */
function jsonBodyOf(entry: OperationEntry): { schema: JsonObject; valid: JsonObject; c: Case } | undefined {
  const json = requestMedia(entry).find((media) => media.type === 'application/json');
  if (!json) return undefined;
  const c = base(entry);
  return { schema: json.schema, valid: JSON.parse(String(c.body)) as JsonObject, c };
}

const readsOf = () => index.operations.filter((entry) => entry.method === 'GET');

describe('booleans in every spelling of Grape, on every operation', () => {
  for (const entry of index.walkable) {
    const inQuery = queryParameters(entry).filter((p) => isBoolean(p.schema));
    const json = requestMedia(entry).find((media) => media.type === 'application/json');
    const inBody = Object.entries((json?.schema.properties ?? {}) as Record<string, JsonObject>)
      .filter(([, schema]) => isBoolean(schema))
      .map(([name]) => name);
    if (inQuery.length === 0 && inBody.length === 0) continue;

    it(
      `${entry.operationId}: ${[...inQuery.map((p) => String(p.name)), ...inBody].join(', ')}`,
      async (context) => {
        if (!implemented.has(entry.operationId)) context.skip();
        const problems: string[] = [];
        const variants: { label: string; name: string; c: Case; like?: Case }[] = [];
        for (const parameter of inQuery) {
          const name = String(parameter.name);
          for (const [spellings, canonical] of [
            [TRUE_SPELLINGS, 'true'],
            [FALSE_SPELLINGS, 'false'],
          ] as const) {
            for (const spelling of sampleOf(spellings, `${entry.operationId} ${name}`, SPELLINGS_SAMPLE)) {
              const c = base(entry);
              variants.push({
                label: `${name}=${spelling}`,
                name,
                c: withQuery(c, `${name}=${spelling}`),
                like: withQuery(c, `${name}=${canonical}`),
              });
            }
          }
        }
        for (const name of inBody) {
          const spellings = [...TRUE_SPELLINGS, ...FALSE_SPELLINGS];
          for (const spelling of sampleOf(spellings, `${entry.operationId} ${name}`, 2 * SPELLINGS_SAMPLE)) {
            const body = jsonBodyOf(entry);
            if (!body) continue;
            variants.push({
              label: `JSON "${name}": "${spelling}"`,
              name,
              c: { ...body.c, body: JSON.stringify({ ...body.valid, [name]: spelling }) },
            });
            // The query string of a write, with a JSON Content-Type, as real clients send it.
            const other = jsonBodyOf(entry);
            if (!other) continue;
            const { [name]: _left, ...rest } = other.valid;
            variants.push({
              label: `query ${name}=${spelling} with a JSON body`,
              name,
              c: withQuery({ ...other.c, body: JSON.stringify(rest) }, `${name}=${spelling}`),
            });
          }
        }
        await inParallel(variants, PARALLEL, async ({ label, name, c, like }) => {
          const answer = await send(entry, c);
          problems.push(...problemsOf(label, answer, name));
          // A read answers a spelling exactly as it answers the canonical `true` or `false`.
          if (like && entry.method === 'GET') {
            const reference = await send(entry, like);
            if (reference.status !== answer.status)
              problems.push(`[${label}] → ${answer.status}, canonical → ${reference.status}`);
          }
        });
        // Anything else is a boolean of no spelling: refused, naming the parameter.
        for (const parameter of inQuery) {
          const name = String(parameter.name);
          const answer = await send(entry, withQuery(base(entry), `${name}=maybe`));
          if (!refusedFor(answer, name))
            problems.push(`[${name}=maybe] not refused: ${answer.status} ${answer.text}`);
        }
        expect(problems).toEqual([]);
      },
      WALK_TIMEOUT,
    );
  }
});

describe('null for an optional property of a JSON body means "not given"; for a required one it is refused', () => {
  for (const entry of index.walkable) {
    const json = requestMedia(entry).find((media) => media.type === 'application/json');
    const properties = Object.keys((json?.schema.properties ?? {}) as JsonObject);
    if (properties.length === 0) continue;

    it(
      `${entry.operationId}: ${properties.join(', ')}`,
      async (context) => {
        if (!implemented.has(entry.operationId)) context.skip();
        const problems: string[] = [];
        const required = new Set((json?.schema.required as string[] | undefined) ?? []);
        await inParallel(properties, PARALLEL, async (name) => {
          const body = jsonBodyOf(entry);
          const without = jsonBodyOf(entry);
          if (!body || !without) return;
          const answer = await send(entry, {
            ...body.c,
            body: JSON.stringify({ ...body.valid, [name]: null }),
          });
          const label = `"${name}": null`;
          if (required.has(name)) {
            if (answer.status !== 400 || answer.problems.length > 0)
              problems.push(`[${label}, required] → ${answer.status} ${answer.text.slice(0, 200)}`);
            return;
          }
          // Refused only where the same request without the property is refused too (an operation that needs
          // at least one of its optional properties, say); the second of two creations may meet the first.
          const { [name]: _left, ...rest } = without.valid;
          const reference = await send(entry, { ...without.c, body: JSON.stringify(rest) });
          problems.push(...answer.problems.map((problem) => `[${label}] ${problem}`));
          if (answer.status >= 500 || (answer.status === 400 && reference.status !== 400))
            problems.push(
              `[${label}] → ${answer.status} ${answer.text.slice(0, 200)}; without it → ${reference.status} ${reference.text.slice(0, 200)}`,
            );
        });
        expect(problems).toEqual([]);
      },
      WALK_TIMEOUT,
    );
  }
});

describe('an empty query value of an optional parameter, and an unknown parameter, change nothing', () => {
  for (const entry of index.walkable) {
    const optional = queryParameters(entry).filter((p) => p.required !== true);

    it(
      `${entry.operationId}: ${optional.map((p) => `${String(p.name)}=`).join(' ') || 'no optional parameters'}, and an unknown one`,
      async (context) => {
        if (!implemented.has(entry.operationId)) context.skip();
        const problems: string[] = [];
        const pairs = [...optional.map((p) => `${String(p.name)}=`), `unknown_${RUN}=1`];
        await inParallel(pairs, PARALLEL, async (pair) => {
          const c = base(entry);
          const name = pair.slice(0, pair.indexOf('='));
          const answer = await send(entry, withQuery(c, pair));
          problems.push(...problemsOf(pair, answer, name));
          if (entry.method === 'GET') {
            const reference = await send(entry, c);
            if (reference.status !== answer.status)
              problems.push(`[${pair}] → ${answer.status}, without it → ${reference.status}`);
          }
        });
        expect(problems).toEqual([]);
      },
      WALK_TIMEOUT,
    );
  }
});

describe('paths', () => {
  it(
    'merges doubled slashes before routing, on every read',
    async () => {
      const problems: string[] = [];
      const reads = readsOf().filter((entry) => implemented.has(entry.operationId));
      expect(reads.length).toBeGreaterThan(40);
      await inParallel(reads, PARALLEL, async (entry) => {
        const c = base(entry);
        const url = urlOf(entry, c);
        const doubled = url.replace('/api/v4/', '/api/v4//').replace(/\/([a-z_]+)\//, '//$1//');
        const headers = { 'PRIVATE-TOKEN': target.config.tokens.admin };
        const [plain, merged] = await Promise.all([fetch(url, { headers }), fetch(doubled, { headers })]);
        if (plain.status !== merged.status)
          problems.push(`${entry.operationId}: ${doubled} → ${merged.status}, ${url} → ${plain.status}`);
      });
      expect(problems).toEqual([]);
    },
    WALK_TIMEOUT,
  );

  it(
    'answers 404 for a negative integer ID in the path, as for an unknown one',
    async () => {
      const problems: string[] = [];
      const withIntegerIds = index.operations.filter(
        (entry) =>
          implemented.has(entry.operationId) &&
          parametersOf(entry).some(
            (p) => p.in === 'path' && typesOf(p.schema).size === 1 && typesOf(p.schema).has('integer'),
          ),
      );
      expect(withIntegerIds.length).toBeGreaterThan(10);
      await inParallel(withIntegerIds, PARALLEL, async (entry) => {
        const c = base(entry);
        for (const parameter of parametersOf(entry)) {
          const types = typesOf(parameter.schema);
          if (parameter.in !== 'path' || types.size !== 1 || !types.has('integer')) continue;
          const answer = await send(entry, { ...c, path: { ...c.path, [String(parameter.name)]: '-5' } });
          if (answer.status !== 404 || answer.problems.length > 0)
            problems.push(
              `${entry.operationId} ${String(parameter.name)}=-5 → ${answer.status} ${answer.problems.join('; ')}`,
            );
        }
      });
      expect(problems).toEqual([]);
    },
    WALK_TIMEOUT,
  );

  it('names the methods of the path in Allow on a 405', async () => {
    // Not through target.fetch, which refuses a method the spec does not have before looking at the answer.
    const response = await fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(target.config.fixtures.publicProject)}/badges`,
      { method: 'PATCH', headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer } },
    );
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
  });
});

describe('what the issue measured, end to end', () => {
  const enc = encodeURIComponent;

  it('reads membership=True on the project list as membership=true', async () => {
    const spelled = await callAs(target, 'developer', '/projects', {
      query: { membership: 'True', per_page: '100' },
    });
    const canonical = await callAs(target, 'developer', '/projects', {
      query: { membership: 'true', per_page: '100' },
    });
    expect(spelled.status).toBe(200);
    expect(spelled.body).toEqual(canonical.body);
    const all = await callAs(target, 'developer', '/projects', {
      query: { membership: 'False', per_page: '100' },
    });
    expect(all.status).toBe(200);
  });

  it('keeps a mirror enabled when an update sends "enabled": null', async () => {
    const project = enc(target.config.fixtures.publicProject);
    const created = await callAs<{ id: number; enabled: boolean }>(
      target,
      'maintainer',
      `/projects/${project}/remote_mirrors`,
      {
        method: 'POST',
        json: { url: `https://mirror.example.com/null-${RUN}.git`, enabled: true },
      },
    );
    expect(created.status).toBe(201);
    const updated = await callAs<{ enabled: boolean; only_protected_branches: boolean }>(
      target,
      'maintainer',
      `/projects/${project}/remote_mirrors/${created.body.id}`,
      { method: 'PUT', json: { enabled: null, only_protected_branches: true } },
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ enabled: true, only_protected_branches: true });
  });

  it('protects a branch with the default push level when "push_access_level" is null', async () => {
    const project = enc(target.config.fixtures.publicProject);
    const name = `null-level-${RUN}`;
    const created = await callAs<{ push_access_levels: { access_level: number }[] }>(
      target,
      'maintainer',
      `/projects/${project}/protected_branches`,
      { method: 'POST', json: { name, push_access_level: null, merge_access_level: null } },
    );
    expect(created.status).toBe(201);
    expect(created.body.push_access_levels.map((level) => level.access_level)).toEqual([40]);
    await callAs(target, 'maintainer', `/projects/${project}/protected_branches/${enc(name)}`, {
      method: 'DELETE',
    });
  });

  it('leaves a badge its name when an update sends "name": null', async () => {
    const project = enc(target.config.fixtures.publicProject);
    const created = await callAs<{ id: number; name: string }>(
      target,
      'maintainer',
      `/projects/${project}/badges`,
      {
        method: 'POST',
        json: {
          name: `null-${RUN}`,
          link_url: 'https://example.com/l',
          image_url: 'https://example.com/i.svg',
        },
      },
    );
    expect(created.status).toBe(201);
    const updated = await callAs<{ name: string }>(
      target,
      'maintainer',
      `/projects/${project}/badges/${created.body.id}`,
      {
        method: 'PUT',
        json: { name: null, link_url: 'https://example.com/l2' },
      },
    );
    expect(updated.status).toBe(200);
    expect(updated.body.name).toBe(`null-${RUN}`);
  });

  it('edits a file with "start_branch": null, and creates one with form booleans', async () => {
    const project = enc(target.config.fixtures.publicProject);
    const path = enc(`null-${RUN}.md`);
    const created = await callAs(target, 'maintainer', `/projects/${project}/repository/files/${path}`, {
      method: 'POST',
      form: { branch: 'main', content: 'one', commit_message: 'Add', execute_filemode: 'False' },
    });
    expect(created.status).toBe(201);
    const edited = await callAs(target, 'maintainer', `/projects/${project}/repository/files/${path}`, {
      method: 'PUT',
      json: {
        branch: 'main',
        content: 'two',
        commit_message: 'Edit',
        start_branch: null,
        last_commit_id: null,
      },
    });
    expect(edited.status).toBe(200);
  });
});
