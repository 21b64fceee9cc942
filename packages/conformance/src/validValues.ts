// Values valid by a request schema of the spec, drawn from a seeded random source: enums, consts, formats,
// min/max lengths and ranges, patterns. Patterns are not inverted: a value is picked among the schema's own
// examples and a few typical values (URLs, SSH keys are examples, branch names, dates, ID lists) that match
// it; a pattern none of them matches is reported, so a new pattern comes with an example or a candidate here.
import type { RequestCases } from './requestCases.js';
import { RUN } from './run.js';
import type { JsonObject } from './specIndex.js';

/** A seeded source of random numbers (mulberry32): the same seed gives the same requests. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [low, high]. */
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}

/** The schema's pattern is matched by none of the candidates: the spec needs an example for it. */
export class NoValueForPattern extends Error {
  constructor(readonly pattern: string) {
    super(`no valid value known for pattern ${pattern}: give the schema an example`);
  }
}

/** Typical string values tried against a pattern, after the schema's own examples. */
function candidates(n: number): string[] {
  return [
    `valid-${RUN}-${n}`,
    `valid_${RUN}_${n}`,
    'main',
    `https://example.com/valid/${RUN}/${n}`,
    `https://example.com/%{project_path}/-/badges/%{default_branch}.svg`,
    `https://user:token@example.com/valid-${RUN}.git`,
    `ssh://git@example.com/valid-${RUN}.git`,
    `file:///srv/mirrors/valid-${RUN}.git`,
    'admins',
    'true',
    'false',
    '42',
    '1,2',
    '2030-01-02',
    `Valid title ${n}`,
    '#1f78d1',
  ];
}

/** The string `text` at the schema's length bounds (code points), padded or cut; undefined if it cannot be. */
function withinLength(text: string, s: JsonObject): string | undefined {
  const min = (s.minLength as number | undefined) ?? 0;
  const max = (s.maxLength as number | undefined) ?? Number.POSITIVE_INFINITY;
  const points = [...text];
  if (points.length > max) return points.slice(0, max).join('');
  if (points.length < min) return text + 'x'.repeat(min - points.length);
  return text;
}

/** Dates and times valid for `format`, or undefined for formats that need no special value. */
function formatted(format: unknown, random: Random): string | undefined {
  const day = new Date(Date.UTC(2030, random.int(0, 11), random.int(1, 28)));
  if (format === 'date-time') return day.toISOString();
  if (format === 'date') return day.toISOString().slice(0, 10);
  if (format === 'email') return `valid-${RUN}@example.com`;
  if (format === 'uri' || format === 'url') return `https://example.com/valid/${RUN}`;
  return undefined;
}

export interface ValueOptions {
  /** Fields that name the fixture projects' default branch (`main`), so writes get as far as git. */
  branchFields: ReadonlySet<string>;
  /** Follows a `$ref` of the spec. */
  resolve: (value: unknown) => JsonObject;
}

/** Generates values valid by request schemas, with the spec's helpers of `cases`. */
export function validValues(cases: RequestCases, options: ValueOptions) {
  const { flat, typesOf } = cases;

  function string(s: JsonObject, name: string, random: Random, n: number): string {
    const format = formatted(s.format, random);
    if (format !== undefined) return format;
    const examples = [
      ...((s.examples as unknown[] | undefined) ?? []),
      ...(s.example !== undefined ? [s.example] : []),
    ].filter((value): value is string => typeof value === 'string');
    const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : undefined;
    const pool = [
      ...(options.branchFields.has(name) ? ['main'] : []),
      ...examples,
      ...(pattern || examples.length === 0 ? candidates(n) : []),
    ];
    const fits = pool
      .map((text) => withinLength(text, s))
      .filter((text): text is string => text !== undefined && (pattern?.test(text) ?? true));
    if (fits.length === 0) throw new NoValueForPattern(String(s.pattern));
    // The branch field and the examples come first: they name what exists; the rest is drawn at random.
    if (options.branchFields.has(name) || (examples.length > 0 && random.chance(0.7)))
      return fits[0] as string;
    return random.pick(fits);
  }

  function integer(s: JsonObject, random: Random): number {
    const minimum =
      (s.minimum as number | undefined) ??
      (s.exclusiveMinimum !== undefined ? Number(s.exclusiveMinimum) + 1 : 0);
    const maximum =
      (s.maximum as number | undefined) ??
      (s.exclusiveMaximum !== undefined ? Number(s.exclusiveMaximum) - 1 : Number.MAX_SAFE_INTEGER);
    // Mostly small, sometimes a bound: the largest number a schema allows must be taken as well.
    if (random.chance(0.15)) return random.pick([minimum, maximum]);
    return random.int(minimum, Math.min(maximum, minimum + 5));
  }

  /** A value valid by `schema` (for the property or parameter `name`); `n` makes names unique. */
  function value(schema: unknown, name: string, random: Random, n: number, depth = 0): unknown {
    const s = flat(schema);
    if (s.const !== undefined) return s.const;
    if (Array.isArray(s.enum)) {
      const values = s.enum.filter((item) => item !== null);
      if (values.length > 0) return random.pick(values);
    }
    const variants = ((s.anyOf ?? s.oneOf) as unknown[] | undefined)?.filter(
      (variant) => flat(variant).type !== 'null',
    );
    if (variants && variants.length > 0 && !s.type)
      return value(random.pick(variants), name, random, n, depth);
    const types = [...typesOf(s)];
    const type = random.pick(types.length > 0 ? types : ['string']);
    if (type === 'object') return object(s, random, n, depth + 1, 0.5);
    if (type === 'array') {
      const count = Math.max((s.minItems as number | undefined) ?? 1, random.int(1, 2));
      return Array.from({ length: count }, () => value(s.items, name, random, n, depth + 1));
    }
    if (type === 'integer') return integer(s, random);
    if (type === 'number') return integer(s, random);
    if (type === 'boolean') return random.chance(0.5);
    return string(s, name, random, n);
  }

  /**
   * An object valid by `schema`: its required properties, and each optional one with probability
   * `optional` (or exactly the names in `include`). An `anyOf`/`oneOf` of required lists is satisfied.
   */
  function object(
    schema: unknown,
    random: Random,
    n: number,
    depth: number,
    optional: number,
    include?: ReadonlySet<string>,
  ): JsonObject {
    const s = flat(schema);
    const properties = (s.properties ?? {}) as Record<string, JsonObject>;
    // The schema and its allOf parts: their required lists, anyOf/oneOf, not and minProperties hold for
    // the whole object.
    const parts = [options.resolve(schema), ...((options.resolve(schema).allOf as unknown[]) ?? [])].map(
      options.resolve,
    );
    const required = new Set([
      ...((s.required as string[] | undefined) ?? []),
      ...parts.flatMap((part) => (part.required as string[] | undefined) ?? []),
    ]);
    /** Properties that must stay out: those of the alternatives of a oneOf not chosen. */
    const excluded = new Set<string>();
    // "At least one of" (anyOf) and "exactly one of" (oneOf) whose variants only require properties.
    for (const part of parts) {
      for (const keyword of ['anyOf', 'oneOf'] as const) {
        const alternatives = ((part[keyword] as unknown[] | undefined) ?? [])
          .map(options.resolve)
          .filter((variant) => Array.isArray(variant.required) && !variant.properties);
        if (alternatives.length === 0) continue;
        const chosen = random.pick(alternatives).required as string[];
        for (const name of chosen) required.add(name);
        if (keyword === 'oneOf')
          for (const other of alternatives)
            for (const name of other.required as string[]) if (!chosen.includes(name)) excluded.add(name);
      }
    }
    // "Not both": a `not` that requires several properties keeps the last of them out.
    const forbidden = parts
      .map((part) => options.resolve(part.not ?? {}).required as string[] | undefined)
      .filter((names): names is string[] => Array.isArray(names) && names.length > 1);
    const result: JsonObject = {};
    for (const [name, property] of Object.entries(properties)) {
      if (flat(property).readOnly === true || excluded.has(name)) continue;
      const wanted = required.has(name) || (include ? include.has(name) : random.chance(optional));
      if (wanted && depth < 4) result[name] = value(property, name, random, n, depth);
    }
    for (const names of forbidden) {
      const droppable = names.filter((name) => !required.has(name));
      if (names.every((name) => name in result) && droppable.length > 0)
        delete result[droppable[droppable.length - 1] as string];
    }
    // `minProperties`: optional properties, drawn in turn, until there are enough.
    const missing = Object.keys(properties).filter(
      (name) => !(name in result) && !excluded.has(name) && flat(properties[name]).readOnly !== true,
    );
    while (
      Object.keys(result).length < Math.max(0, ...parts.map((part) => Number(part.minProperties ?? 0))) &&
      missing.length > 0
    ) {
      const [name] = missing.splice(random.int(0, missing.length - 1), 1);
      if (name !== undefined) result[name] = value(properties[name], name, random, n, depth);
    }
    return result;
  }

  return { value, object };
}
