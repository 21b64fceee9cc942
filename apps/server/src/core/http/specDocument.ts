// Reading the bundled OpenAPI document at start: local references, and every operation with its path item.
// The request readers of core/http (parameterCarriers, grapeParameters) index the operations once with these.

export type Json = Record<string, unknown>;

export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'];

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` (`#/components/...`) of the document. */
export function resolve(spec: Json, value: unknown): unknown {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 32; hops++) {
    const ref: string = current.$ref;
    current = ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (node, key) => (isObject(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
        spec,
      );
  }
  return current;
}

/** An operation of the document, keyed as the validator's route lookup names it. */
export interface OperationOfDocument {
  /** `METHOD /base/path/{template}`: the method and `req.openapi.openApiRoute`, which carries the base path. */
  key: string;
  pathItem: Json;
  operation: Json;
  /** The path item's and the operation's parameters, resolved. */
  parameters: Json[];
}

export function operationsOf(spec: Json, basePath = ''): OperationOfDocument[] {
  const found: OperationOfDocument[] = [];
  const paths = isObject(spec.paths) ? spec.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    const pathItem = resolve(spec, item);
    if (!isObject(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const parameters = [pathItem.parameters, operation.parameters]
        .flatMap((list) => (Array.isArray(list) ? list : []))
        .map((parameter) => resolve(spec, parameter))
        .filter(isObject);
      found.push({ key: `${method.toUpperCase()} ${basePath}${path}`, pathItem, operation, parameters });
    }
  }
  return found;
}

/**
 * A value for each operation of a document, by key, worked out from the document the first time it is asked
 * for: a start then pays only for the operations its first requests reach (the warm-up works out the rest).
 * The document must not change afterwards (each validator instance is given its own copy).
 */
export class OperationIndex<V> {
  private readonly operations: Map<string, OperationOfDocument>;
  private readonly values = new Map<string, V>();

  constructor(
    operations: readonly OperationOfDocument[],
    private readonly compute: (operation: OperationOfDocument) => V,
  ) {
    this.operations = new Map(operations.map((operation) => [operation.key, operation]));
  }

  keys(): IterableIterator<string> {
    return this.operations.keys();
  }

  get(key: string): V | undefined {
    const known = this.values.get(key);
    if (known !== undefined) return known;
    const operation = this.operations.get(key);
    if (operation === undefined) return undefined;
    const value = this.compute(operation);
    this.values.set(key, value);
    return value;
  }
}
