// The shape of a JSON value, for `collab-conformance diff`: its keys and JSON types, never its values (ids,
// dates and names differ between two servers that agree). The elements of an array are merged into one shape:
// a list of five and a list of three of the same objects have one shape.

export interface Shape {
  /** JSON types seen: `null`, `boolean`, `number`, `string`, `array`, `object`. */
  types: Set<string>;
  /** An object's keys, each with its shape. */
  keys?: Map<string, Shape>;
  /** The merged shape of an array's elements (absent for an empty array). */
  items?: Shape;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function shapeOf(value: unknown): Shape {
  const type = typeOf(value);
  const shape: Shape = { types: new Set([type]) };
  if (type === 'object') {
    shape.keys = new Map();
    for (const [key, inner] of Object.entries(value as Record<string, unknown>))
      shape.keys.set(key, shapeOf(inner));
  }
  if (type === 'array') {
    for (const item of value as unknown[]) shape.items = merge(shape.items, shapeOf(item));
  }
  return shape;
}

function merge(a: Shape | undefined, b: Shape): Shape {
  if (!a) return b;
  const merged: Shape = { types: new Set([...a.types, ...b.types]) };
  if (a.keys || b.keys) {
    merged.keys = new Map(a.keys);
    for (const [key, shape] of b.keys ?? []) merged.keys.set(key, merge(merged.keys.get(key), shape));
  }
  if (a.items || b.items) merged.items = b.items ? merge(a.items, b.items) : a.items;
  return merged;
}

function types(shape: Shape): string {
  return [...shape.types].sort().join('|');
}

/**
 * Where two shapes differ, as `path: what` lines (`/0/author: key missing in the target`, `/id: number in
 * the reference, string in the target`). An array empty on one side only is no difference of shape.
 */
export function shapeDifferences(reference: Shape, target: Shape, path = ''): string[] {
  const where = path || '(root)';
  if (types(reference) !== types(target))
    return [`${where}: ${types(reference)} in the reference, ${types(target)} in the target`];
  const differences: string[] = [];
  if (reference.keys && target.keys) {
    for (const [key, shape] of reference.keys) {
      const other = target.keys.get(key);
      if (!other) differences.push(`${path}/${key}: key missing in the target`);
      else differences.push(...shapeDifferences(shape, other, `${path}/${key}`));
    }
    for (const key of target.keys.keys())
      if (!reference.keys.has(key)) differences.push(`${path}/${key}: key not in the reference`);
  }
  if (reference.items && target.items)
    differences.push(...shapeDifferences(reference.items, target.items, `${path}/*`));
  return differences;
}
