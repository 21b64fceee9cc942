// Requests built from the bundled spec alone: valid values for a schema, the parameters and request media
// of an operation, and the valid request of an operation against the configured fixture project or group.
// The spec-driven tests share it: the negative fuzz (test/negative.test.ts) changes one thing of the valid
// request per case; the valid-request test (test/validRequests.test.ts) sends valid variants of it.
import type { ConformanceConfig } from './config.js';
import { RUN } from './run.js';
import { type JsonObject, type OperationEntry, resolveRef, type SpecIndex } from './specIndex.js';

/** One request to an operation, before it is sent. */
export interface Case {
  label: string;
  /** Path parameter values, already percent-encoded. */
  path: Record<string, string>;
  /** The raw query string, without `?`. */
  query: string;
  contentType?: string;
  body?: string | Uint8Array;
  /** Leave the token out (the probe). */
  anonymous?: boolean;
  /** Send the token as `Authorization: Bearer` instead of `PRIVATE-TOKEN`. */
  bearer?: boolean;
}

/** One media type of an operation's request body, its schema flattened (see `flat`). */
export interface Media {
  type: string;
  schema: JsonObject;
}

/** The fixtures the built requests name (a subset of the configuration's). */
export type RequestFixtures = Pick<ConformanceConfig['fixtures'], 'publicProject' | 'namespace'>;

/**
 * Operations whose valid case (and the cases a server may take as valid: unknown fields, an ignored body)
 * would archive, delete or share the fixture project itself, for every file after this one on a shared
 * server. They get a project that does not exist: the validator's checks still run, the service answers 404.
 */
export const CHANGES_THE_PROJECT = new Set([
  'archiveProject',
  'unarchiveProject',
  'deleteProject',
  'restoreProject',
  'shareProjectWithGroup',
  'unshareProjectWithGroup',
  // Would rename the fixture project, change its visibility or move its default branch.
  'editProject',
  // Would change who may do what in the fixture project (for every test after this one).
  'addProjectMember',
  'editProjectMember',
  'removeProjectMember',
]);

/**
 * The same for the fixture group: operations that would delete or reconfigure it, or change its members, get
 * a group that does not exist.
 */
export const CHANGES_THE_GROUP = new Set([
  'editGroup',
  'deleteGroup',
  'addGroupMember',
  'editGroupMember',
  'removeGroupMember',
]);

/** Branch-like fields name the fixture projects' default branch, so writes get as far as git. */
export const EXISTING_BRANCH_FIELDS = new Set(['branch', 'ref', 'start_branch']);

export interface RequestCases {
  /** `schema` resolved, with an `allOf` merged into one object schema (properties and required fields). */
  flat(schema: unknown): JsonObject;
  /** The non-null types `schema` admits, its `anyOf`/`oneOf` variants' included. */
  typesOf(schema: unknown): Set<string>;
  /** A valid value for `schema`: its example, default or first enum value, else one made from its type. */
  sample(schema: unknown, name: string, n: number): unknown;
  /** The operation's parameters, its path item's first, resolved. */
  parametersOf(entry: OperationEntry): JsonObject[];
  /**
   * The value of a path parameter: the fixture project or group for `id`, else something that does not
   * exist (a new name per case, so creating writes never collide), encoded as one path segment. `probe`
   * names a project or group that does not exist for `id` too; so do the operations of
   * `CHANGES_THE_PROJECT` for a project's `id` and those of `CHANGES_THE_GROUP` for a group's.
   */
  pathValue(entry: OperationEntry, parameter: JsonObject, n: number, probe: boolean): string;
  /** The media types of the operation's request body. */
  requestMedia(entry: OperationEntry): Media[];
  /**
   * The valid request every negative case changes one thing of: the path parameters, the required query
   * parameters, and a JSON body of the required fields (or a multipart one). `probe` leaves the token out
   * and names a project or group that does not exist.
   */
  baseCase(entry: OperationEntry, n: number, probe?: boolean): Case;
  /** A multipart body of the operation's required fields (a small file for binary ones), with `changes`. */
  multipart(
    entry: OperationEntry,
    n: number,
    changes: Record<string, string | undefined>,
  ): { contentType: string; body: Uint8Array };
}

/**
 * The request builders for `index`. `fixtures` is read when a path is built (the suite opens its target,
 * and so knows its fixtures, only in `beforeAll`).
 */
export function requestCases(index: SpecIndex, fixtures: () => RequestFixtures): RequestCases {
  const resolve = <T = JsonObject>(value: unknown): T => resolveRef<T>(index, value);

  function flat(schema: unknown): JsonObject {
    const s = resolve(schema ?? {});
    if (!Array.isArray(s.allOf)) return s;
    const parts = (s.allOf as unknown[]).map(flat);
    return {
      type: 'object',
      ...s,
      allOf: undefined,
      properties: Object.assign({}, ...parts.map((part) => part.properties ?? {}), s.properties ?? {}),
      required: parts.flatMap((part) => (part.required as string[] | undefined) ?? []),
    };
  }

  function typesOf(schema: unknown): Set<string> {
    const s = flat(schema);
    const types = new Set<string>();
    const type = s.type as string | string[] | undefined;
    for (const t of Array.isArray(type) ? type : type ? [type] : []) if (t !== 'null') types.add(t);
    for (const variant of [...((s.anyOf as unknown[]) ?? []), ...((s.oneOf as unknown[]) ?? [])])
      for (const t of typesOf(variant)) types.add(t);
    if (types.size === 0 && s.properties) types.add('object');
    return types;
  }

  function sample(schema: unknown, name: string, n: number): unknown {
    const s = flat(schema);
    if (EXISTING_BRANCH_FIELDS.has(name) && typesOf(s).has('string')) return 'main';
    if (s.example !== undefined) return s.example;
    if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
    if (s.default !== undefined) return s.default;
    if (Array.isArray(s.enum)) return s.enum[0];
    if (s.const !== undefined) return s.const;
    const variants = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
    if (variants?.[0] !== undefined) return sample(variants[0], name, n);
    const types = typesOf(s);
    if (types.has('object')) {
      const properties = (s.properties ?? {}) as JsonObject;
      return Object.fromEntries(
        ((s.required as string[] | undefined) ?? []).map((key) => [key, sample(properties[key], key, n)]),
      );
    }
    if (types.has('array')) return [sample(s.items, name, n)];
    if (types.has('integer') || types.has('number')) return (s.minimum as number | undefined) ?? 1;
    if (types.has('boolean')) return false;
    if (s.format === 'date-time') return new Date().toISOString();
    if (s.format === 'email') return 'negative@example.com';
    if (s.format === 'uri' || s.format === 'url') return 'https://example.com/negative';
    return `neg-${RUN}-${n}`;
  }

  function parametersOf(entry: OperationEntry): JsonObject[] {
    const item = (index.document.paths as Record<string, JsonObject>)[entry.template] ?? {};
    return [
      ...((item.parameters as unknown[]) ?? []),
      ...((entry.operation.parameters as unknown[]) ?? []),
    ].map((parameter) => resolve(parameter));
  }

  function pathValue(entry: OperationEntry, parameter: JsonObject, n: number, probe: boolean): string {
    const { publicProject, namespace } = fixtures();
    const name = String(parameter.name);
    const changesTheProject = CHANGES_THE_PROJECT.has(String(entry.operation.operationId));
    if (name === 'id' && entry.template.startsWith('/projects/{id}'))
      return encodeURIComponent(probe || changesTheProject ? `no-such-group-${RUN}/none` : publicProject);
    if (name === 'id' && entry.template.startsWith('/groups/{id}'))
      return encodeURIComponent(
        probe || CHANGES_THE_GROUP.has(String(entry.operation.operationId))
          ? `no-such-group-${RUN}`
          : namespace,
      );
    const types = typesOf(parameter.schema);
    if (types.has('integer') && !types.has('string')) return '999999999';
    return encodeURIComponent(`neg-${RUN}-${n}.txt`);
  }

  function requestMedia(entry: OperationEntry): Media[] {
    const content = (resolve(entry.operation.requestBody ?? {}).content ?? {}) as Record<string, JsonObject>;
    return Object.entries(content).map(([type, media]) => ({ type, schema: flat(media.schema) }));
  }

  function baseCase(entry: OperationEntry, n: number, probe = false): Case {
    const path: Record<string, string> = {};
    const query = new URLSearchParams();
    for (const parameter of parametersOf(entry)) {
      if (parameter.in === 'path') path[String(parameter.name)] = pathValue(entry, parameter, n, probe);
      else if (parameter.in === 'query' && parameter.required === true)
        query.set(String(parameter.name), String(sample(parameter.schema, String(parameter.name), n)));
    }
    const base: Case = { label: 'valid', path, query: query.toString(), anonymous: probe };
    const media = requestMedia(entry);
    const json = media.find((m) => m.type === 'application/json');
    if (json) return { ...base, contentType: json.type, body: JSON.stringify(sample(json.schema, '', n)) };
    if (media.some((m) => m.type === 'multipart/form-data')) return { ...base, ...multipart(entry, n, {}) };
    return base;
  }

  function multipart(
    entry: OperationEntry,
    n: number,
    changes: Record<string, string | undefined>,
  ): { contentType: string; body: Uint8Array } {
    const schema = requestMedia(entry).find((m) => m.type === 'multipart/form-data')?.schema ?? {};
    const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
    const boundary = `negative${RUN}`;
    const fields: Record<string, string | undefined> = {};
    for (const name of (schema.required as string[] | undefined) ?? [])
      fields[name] =
        resolve(properties[name]).format === 'binary' ? undefined : String(sample(properties[name], name, n));
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries({ ...fields, ...changes })) {
      if (name in changes && changes[name] === undefined && !(name in fields)) continue;
      if (resolve(properties[name]).format === 'binary' && !(name in changes)) {
        parts.push(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="file.bin"\r\n` +
              'Content-Type: application/octet-stream\r\n\r\nnot an archive\r\n',
          ),
        );
      } else if (value !== undefined) {
        parts.push(
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
        );
      }
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
  }

  return { flat, typesOf, sample, parametersOf, pathValue, requestMedia, baseCase, multipart };
}
