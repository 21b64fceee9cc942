// Requests valid by the spec alone, and how a refusal of one is classified: shared by the valid-request test
// (test/validRequests.test.ts) and `collab-conformance fuzz`. A variant has the required parameters and
// fields, and optional ones drawn at random, their values drawn to satisfy enums, patterns, formats, lengths
// and ranges (src/validValues.ts). The fixture projects are never archived, deleted, transferred or edited:
// CHANGES_THE_PROJECT and `editProject` go to a project that does not exist (CHANGES_THE_GROUP to a group
// that does not exist); other path parameters get fresh values, so only uniquely named objects are created.
import {
  type Case,
  CHANGES_THE_GROUP,
  CHANGES_THE_PROJECT,
  EXISTING_BRANCH_FIELDS,
  type RequestCases,
} from './requestCases.js';
import { RUN } from './run.js';
import { type JsonObject, type OperationEntry, resolveRef, type SpecIndex } from './specIndex.js';
import { Random, validValues } from './validValues.js';

/** Variants per operation in the valid-request test: the required fields alone, then optional ones. */
export const VARIANTS = 5;
/** Besides CHANGES_THE_PROJECT: operations whose valid requests would rename or reconfigure the fixture. */
const ALTERS_THE_PROJECT = new Set(['editProject']);
/**
 * Fields fixed per operation, where a valid value would reach outside the test: a mirror that is enabled
 * pushes to its (made-up) remote on every change of the fixture project.
 */
const FIXED: Record<string, JsonObject> = {
  createRemoteMirror: { enabled: false },
  updateRemoteMirror: { enabled: false },
  // A new group at the top, never a subgroup of a fixture group (which other tests list).
  createGroup: { parent_id: null },
};

/** A 400 that is about the request's shape (GitLab's and the validator's words for a bad parameter). */
export const SHAPE_WORDS =
  /is missing|is invalid|does not have a valid value|must (be|have|match|NOT|not)\b|is too (long|short)|can't be blank|not a valid|is blocked|are missing|at least one|can contain only|can only contain|cannot (start|end|contain)|unsupported content type|not valid JSON|percent-encoding|malformed/i;

/** The class of an answer to a valid request: its status, with a 400 split into `shape` and `400 state`. */
export function classOf(status: number, text: string): string {
  if (status < 300) return `${status}`;
  if (status === 400) return SHAPE_WORDS.test(text) ? 'shape' : '400 state';
  return `${status}`;
}

/** A number from a text (FNV-1a), so each operation has its own reproducible variants. */
export function seedOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}

/** Whether the operation's `security` (or the document's) lets a request without a token in. */
export function hasAnonymousAccess(index: SpecIndex, entry: OperationEntry): boolean {
  const security = (entry.operation.security ?? index.document.security ?? []) as JsonObject[];
  return security.some((requirement) => Object.keys(requirement).length === 0);
}

/** A value of a query parameter as query text: arrays repeated, deepObject as `name[key]=value`. */
export function appendQuery(query: URLSearchParams, parameter: JsonObject, value: unknown): void {
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

/**
 * The form encoding of a flat body (scalars only); undefined when a value is an array or an object. A null
 * (not given, in JSON) is left out: a form has no null.
 */
export function formBody(body: JsonObject): string | undefined {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    if (value === null) continue;
    if (typeof value === 'object') return undefined;
    form.append(name, String(value));
  }
  return form.toString();
}

/** A valid request, with its JSON body as an object when it has one (before any form encoding). */
export interface Variant {
  c: Case;
  json?: JsonObject;
}

export function validVariants(index: SpecIndex, cases: RequestCases) {
  const { flat, parametersOf, pathValue, requestMedia, multipart } = cases;
  const resolve = (value: unknown) => resolveRef(index, value);
  const values = validValues(cases, { branchFields: EXISTING_BRANCH_FIELDS, resolve });
  /** For the last variants: `branch` drawn like any name (a new branch's rules are tried too). */
  const freshBranchValues = validValues(cases, {
    branchFields: new Set([...EXISTING_BRANCH_FIELDS].filter((name) => name !== 'branch')),
    resolve,
  });

  /** A fresh value for a path parameter other than the fixture's `id`: nothing that exists is touched. */
  function freshPathValue(entry: OperationEntry, parameter: JsonObject, n: number): string {
    const schema = flat(parameter.schema);
    const fresh = `valid_${RUN}_${n}`;
    const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
    if (parameter.name === 'id' || !cases.typesOf(schema).has('string') || (pattern && !pattern.test(fresh)))
      return pathValue(entry, parameter, n, false);
    return encodeURIComponent(fresh);
  }

  /**
   * Variant `v` of an operation (0: the required fields only; each optional one is in one of the next
   * VARIANTS - 1, and in any at random; the last two draw `branch` like any name). Odd variants of an
   * operation taking forms send a flat body as a form. `n` makes the names of the variant unique.
   */
  function variant(entry: OperationEntry, random: Random, v: number, n: number): Variant {
    const operationId = entry.operationId;
    const parameters = parametersOf(entry);
    const optionalQuery = parameters.filter((p) => p.in === 'query' && p.required !== true);
    const media = requestMedia(entry);
    const json = media.find((m) => m.type === 'application/json');
    const form = media.some((m) => m.type === 'application/x-www-form-urlencoded');
    const optionalBody = Object.keys((json?.schema.properties ?? {}) as JsonObject).filter(
      (name) => !((json?.schema.required as string[] | undefined) ?? []).includes(name),
    );
    const chosen = (i: number) =>
      v > 0 && (i % (VARIANTS - 1) === (v - 1) % (VARIANTS - 1) || random.chance(0.3));
    const path: Record<string, string> = {};
    const query = new URLSearchParams();
    for (const parameter of parameters) {
      const name = String(parameter.name);
      if (parameter.in === 'path') {
        const replaced =
          name === 'id' &&
          (CHANGES_THE_PROJECT.has(operationId) ||
            CHANGES_THE_GROUP.has(operationId) ||
            ALTERS_THE_PROJECT.has(operationId));
        path[name] = replaced
          ? encodeURIComponent(`no-such-group-${RUN}/none`)
          : freshPathValue(entry, parameter, n);
      } else if (parameter.in === 'query') {
        const i = optionalQuery.indexOf(parameter);
        if (parameter.required === true || chosen(i))
          appendQuery(query, parameter, values.value(parameter.schema, name, random, n));
      }
    }
    const c: Case = { label: `valid variant ${v}`, path, query: query.toString() };
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
        return { c: { ...c, contentType: 'application/x-www-form-urlencoded', body: asForm }, json: body };
      return { c: { ...c, contentType: json.type, body: JSON.stringify(body) }, json: body };
    }
    if (media.some((m) => m.type === 'multipart/form-data'))
      return { c: { ...c, ...multipart(entry, n, {}) } };
    return { c };
  }

  /** The valid-request test's variants of an operation: VARIANTS of them, seeded by its operationId. */
  function variantsFor(entry: OperationEntry): Case[] {
    const random = new Random(seedOf(entry.operationId));
    return Array.from({ length: VARIANTS }, (_, v) => variant(entry, random, v, v + 1).c);
  }

  return { values, variant, variantsFor };
}
