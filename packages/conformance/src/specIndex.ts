// The bundled spec, indexed for looking up the operation behind a request URL.
import { readFileSync } from 'node:fs';
import { bundledSpecJsonPath } from '@collab/spec';

export type JsonObject = Record<string, unknown>;

export interface OperationEntry {
  method: string;
  /** The spec's path template, e.g. `/projects/{id}/repository/branches`. */
  template: string;
  operationId: string;
  operation: JsonObject;
  pattern: RegExp;
  /** How many templated segments: literal matches are preferred over templated ones. */
  paramCount: number;
  /**
   * A valid request revokes the token it is made with (`x-revokes-caller-token`): spec-driven walks and the
   * fuzz, which send the configured role tokens, leave it out (its own contract file checks it).
   */
  revokesCallerToken: boolean;
}

export interface SpecIndex {
  document: JsonObject;
  operations: OperationEntry[];
  /**
   * The operations a spec-driven walk or the fuzz sends with the configured role tokens: every operation but
   * those that revoke the token they are sent with.
   */
  walkable: OperationEntry[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const V4_PREFIX = '/api/v4';

function serverPrefix(pathItem: JsonObject): string {
  const servers = pathItem.servers as { url: string }[] | undefined;
  const url = servers?.[0]?.url;
  // `{base_url}/api/scim/v2` → `/api/scim/v2`; the root server is `{base_url}/api/v4`.
  return url ? url.replace(/^\{base_url\}/, '') : V4_PREFIX;
}

function templatePattern(prefix: string, template: string): RegExp {
  const escaped = `${prefix}${template}`
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${escaped}$`);
}

export function loadSpecIndex(path = bundledSpecJsonPath): SpecIndex {
  const document = JSON.parse(readFileSync(path, 'utf8')) as JsonObject;
  const operations: OperationEntry[] = [];
  for (const [template, item] of Object.entries(document.paths as Record<string, JsonObject>)) {
    const prefix = serverPrefix(item);
    for (const method of METHODS) {
      const operation = item[method] as JsonObject | undefined;
      if (!operation) continue;
      operations.push({
        method: method.toUpperCase(),
        template,
        operationId: String(operation.operationId),
        operation,
        pattern: templatePattern(prefix, template),
        paramCount: (template.match(/\{/g) ?? []).length,
        revokesCallerToken: operation['x-revokes-caller-token'] === true,
      });
    }
  }
  operations.sort((a, b) => a.paramCount - b.paramCount);
  return { document, operations, walkable: operations.filter((entry) => !entry.revokesCallerToken) };
}

/** The operation a request goes to: the URL path is matched raw (still percent-encoded), as servers route it. */
export function findOperation(index: SpecIndex, method: string, url: string): OperationEntry | undefined {
  const path = new URL(url).pathname;
  return index.operations.find((entry) => entry.method === method.toUpperCase() && entry.pattern.test(path));
}

/** Follows a local `#/components/...` reference inside the document. */
export function resolveRef<T = JsonObject>(index: SpecIndex, value: unknown): T {
  let current = value as JsonObject;
  for (let depth = 0; depth < 10 && typeof current?.$ref === 'string'; depth++) {
    const pointer = (current.$ref as string).replace(/^#\//, '').split('/');
    let target: unknown = index.document;
    for (const segment of pointer) {
      target = (target as JsonObject)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    current = target as JsonObject;
  }
  return current as T;
}
