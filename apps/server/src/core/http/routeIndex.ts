// Our own route lookup for the spec's paths: a request's method and path (below the base path) to the
// operation that serves it, with its path parameters decoded. Compiled once at start into a tree of path
// segments, so a lookup walks the request's segments instead of trying every route.
import { isObject, type Json, resolve } from './specDocument.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'] as const;

/** One operation of the document. */
export interface IndexedOperation {
  operationId: string;
  /** Upper case: `GET`. */
  method: string;
  /** The spec's path template, without the base path: `/projects/{id}/badges/{badge_id}`. */
  template: string;
  /** `METHOD /base/path/{template}`: how core/http's request readers key an operation. */
  key: string;
}

export type RouteMatch =
  | { kind: 'operation'; operation: IndexedOperation; params: Record<string, string> }
  /** The path exists, the method does not: the methods it has, for `Allow`. */
  | { kind: 'method'; allow: readonly string[] };

interface Node {
  literals: Map<string, Node>;
  param: Node | undefined;
  /** The operations of the path ending here, by method. */
  operations: Map<string, IndexedOperation> | undefined;
  /** The parameter names of the path ending here, in segment order. */
  paramNames: readonly string[];
}

const newNode = (): Node => ({
  literals: new Map(),
  param: undefined,
  operations: undefined,
  paramNames: [],
});

const PARAMETER = /^\{([^}]+)\}$/;

/** The segments of a path after its leading `/`; a trailing `/` is optional, as in Express. */
function segmentsOf(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

export class RouteIndex {
  private readonly root = newNode();
  readonly operations: IndexedOperation[] = [];

  constructor(spec: Json, basePath: string) {
    const paths = isObject(spec.paths) ? spec.paths : {};
    for (const [template, item] of Object.entries(paths)) {
      const pathItem = resolve(spec, item);
      if (!isObject(pathItem)) continue;
      let node = this.root;
      const paramNames: string[] = [];
      for (const segment of segmentsOf(template)) {
        const parameter = PARAMETER.exec(segment)?.[1];
        if (parameter === undefined) {
          // Case-insensitive, as Express routes by default.
          const next = node.literals.get(segment.toLowerCase()) ?? newNode();
          node.literals.set(segment.toLowerCase(), next);
          node = next;
          continue;
        }
        if (segment.includes('{', 1))
          throw new Error(`route index: a segment of two parameters in ${template}`);
        node.param ??= newNode();
        node = node.param;
        paramNames.push(parameter);
      }
      node.operations ??= new Map();
      node.paramNames = paramNames;
      for (const method of METHODS) {
        const operation = pathItem[method];
        if (!isObject(operation)) continue;
        if (typeof operation.operationId !== 'string')
          throw new Error(`route index: ${method.toUpperCase()} ${template} has no operationId`);
        const upper = method.toUpperCase();
        const indexed: IndexedOperation = {
          operationId: operation.operationId,
          method: upper,
          template,
          key: `${upper} ${basePath}${template}`,
        };
        node.operations.set(upper, indexed);
        this.operations.push(indexed);
      }
    }
  }

  /**
   * The operation for a method and a path below the base path (still %-encoded, as in the URL): literal
   * segments before parameters, as OpenAPI orders paths; a parameter fills one non-empty segment. HEAD falls
   * back to the path's GET, as Express answers HEAD. Undefined when no path of the document matches.
   */
  match(method: string, path: string): RouteMatch | undefined {
    const segments = segmentsOf(path);
    const values: string[] = [];
    const node = this.find(this.root, segments, 0, values);
    if (node?.operations === undefined) return undefined;
    const operation =
      node.operations.get(method) ?? (method === 'HEAD' ? node.operations.get('GET') : undefined);
    if (operation === undefined) return { kind: 'method', allow: [...node.operations.keys()] };
    const params: Record<string, string> = {};
    const names = node.paramNames;
    for (let at = 0; at < names.length; at++) params[names[at] as string] = decodeSegment(values[at] ?? '');
    return { kind: 'operation', operation, params };
  }

  private find(node: Node, segments: readonly string[], at: number, values: string[]): Node | undefined {
    if (at === segments.length) return node.operations === undefined ? undefined : node;
    const segment = segments[at] ?? '';
    // The spec's literal segments are lower case: a request's usually is too, and needs no lower-cased copy.
    const literal = node.literals.get(segment) ?? node.literals.get(segment.toLowerCase());
    if (literal !== undefined) {
      const found = this.find(literal, segments, at + 1, values);
      if (found !== undefined) return found;
    }
    if (node.param !== undefined && segment !== '') {
      values.push(segment);
      const found = this.find(node.param, segments, at + 1, values);
      if (found !== undefined) return found;
      values.pop();
    }
    return undefined;
  }
}

/** A path parameter as Express's router decodes it (`%2F` is the parameter's own `/`). */
function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    // The error handlers answer a URIError as a malformed URL (400), as for Express's own routers.
    throw new URIError(`malformed percent-encoding in a path parameter: ${segment}`);
  }
}
