// Invalid requests for the fuzzer: a valid variant (src/validVariants.ts) with one thing made wrong by the
// spec. Each mutation says whether the spec alone makes the request invalid (`mustRefuse`: a wrong type,
// a missing required field, a value out of range, over its maximum length or outside its enum, a malformed
// or non-object JSON body, an undocumented content type), or is only malformed in transport (percent-
// encodings, control characters), which must merely not break the server (no 5xx, a documented answer).
import type { Case, RequestCases } from '../requestCases.js';
import type { JsonObject, OperationEntry } from '../specIndex.js';
import type { Random } from '../validValues.js';
import type { Variant } from '../validVariants.js';

export interface Mutation {
  label: string;
  c: Case;
  /** The spec makes the request invalid: a 2xx (or 3xx) answer is a finding. */
  mustRefuse: boolean;
}

/** Malformed percent-encoding: an overlong `/`, a lone `%`, an encoded surrogate, a cut escape. */
const BAD_ESCAPES = ['%C0%AF%FF', '%', '%ED%A0%80', 'a%E0%A4%A'];
/** NUL, another C0 control, and a lone UTF-16 surrogate (not encodable as UTF-8). */
const CONTROL = ['a\u0000b', '\u0001', 'a\ud800b'];

/** `object` as JSON text with `literal` (a number JSON.stringify cannot write) as the value of `key`. */
function jsonWith(object: JsonObject, key: string, literal: string): string {
  const marker = '\u0000literal\u0000';
  return JSON.stringify({ ...object, [key]: marker }).replace(JSON.stringify(marker), literal);
}

export function invalidRequests(cases: RequestCases) {
  const { flat, typesOf, parametersOf, requestMedia } = cases;

  /** A value of a type `types` does not admit, when one is certain to be refused. */
  function wrongType(types: Set<string>): unknown {
    if (types.has('object') || types.has('array')) return undefined;
    if (types.has('string')) return { not: 'a string' };
    if (types.has('boolean')) return 'maybe';
    if (types.has('integer') || types.has('number')) return 'not a number';
    return undefined;
  }

  /** Values `schema` refuses by its own bounds: out of range, over-long, outside the enum. */
  function outOfBounds(schema: unknown): { label: string; literal: string }[] {
    const s = flat(schema);
    const types = typesOf(s);
    const found: { label: string; literal: string }[] = [];
    const numeric = (types.has('integer') || types.has('number')) && !types.has('string');
    if (numeric && typeof s.maximum === 'number' && s.maximum < Number.MAX_SAFE_INTEGER)
      found.push({ label: 'over its maximum', literal: String(s.maximum + 1) });
    if (numeric && typeof s.minimum === 'number')
      found.push({ label: 'under its minimum', literal: String(s.minimum - 1) });
    if (numeric && types.has('integer') && !types.has('number'))
      found.push({ label: 'not an integer', literal: '1.5' });
    if (types.size === 1 && types.has('string') && typeof s.maxLength === 'number' && s.maxLength < 5_000)
      found.push({ label: 'over its maximum length', literal: JSON.stringify('a'.repeat(s.maxLength + 1)) });
    if (types.size === 1 && types.has('string') && typeof s.minLength === 'number' && s.minLength > 0)
      found.push({ label: 'under its minimum length', literal: JSON.stringify('') });
    const enumValues = Array.isArray(s.enum) ? s.enum : undefined;
    if (enumValues && types.size === 1 && types.has('string'))
      found.push({ label: 'outside its enum', literal: JSON.stringify('neg_unknown_value') });
    return found;
  }

  /** Every mutation of `variant` (the caller draws one). */
  function mutationsOf(entry: OperationEntry, variant: Variant): Mutation[] {
    const base = variant.c;
    const found: Mutation[] = [];
    const add = (label: string, change: Partial<Case>, mustRefuse: boolean) =>
      found.push({ label, c: { ...base, ...change, label }, mustRefuse });
    const withPair = (pair: string) => (base.query ? `${base.query}&${pair}` : pair);

    // The path: malformed escapes, control characters; an integer parameter given a word.
    for (const parameter of parametersOf(entry).filter((p) => p.in === 'path')) {
      const name = String(parameter.name);
      const at = (value: string, label: string, mustRefuse: boolean) =>
        add(`path ${name} ${label}`, { path: { ...base.path, [name]: value } }, mustRefuse);
      for (const bad of BAD_ESCAPES) at(bad, `malformed ${bad}`, false);
      at('a%01b', 'control character', false);
      const types = typesOf(parameter.schema);
      if (types.size === 1 && types.has('integer')) at('abc', 'not an integer', true);
    }

    // The query: a required parameter left out; a wrong type; a value out of bounds; malformed escapes.
    const query = new URLSearchParams(base.query);
    for (const parameter of parametersOf(entry).filter((p) => p.in === 'query')) {
      const name = String(parameter.name);
      const without = new URLSearchParams(query);
      without.delete(name);
      if (parameter.required === true) add(`query ${name} missing`, { query: without.toString() }, true);
      const set = (value: string, label: string, mustRefuse: boolean) => {
        const changed = new URLSearchParams(without);
        changed.set(name, value);
        add(`query ${name} ${label}`, { query: changed.toString() }, mustRefuse);
      };
      const types = typesOf(parameter.schema);
      const wrong = wrongType(types);
      if (typeof wrong === 'string' && !types.has('string')) set(wrong, 'of a wrong type', true);
      for (const bound of outOfBounds(parameter.schema))
        set(String(JSON.parse(bound.literal)), bound.label, true);
      add(`query ${name} malformed escape`, { query: withPair(`${name}=${BAD_ESCAPES[0]}`) }, false);
      add(`query ${name} NUL`, { query: withPair(`${name}=%00`) }, false);
    }
    add('query malformed name', { query: withPair('%E0%A4%A=1') }, false);

    // The body.
    const media = requestMedia(entry);
    const json = media.find((m) => m.type === 'application/json');
    if (json && variant.json) {
      const valid = variant.json;
      const body = (label: string, text: string, mustRefuse = true) =>
        add(label, { contentType: json.type, body: text }, mustRefuse);
      const required = (json.schema.required as string[] | undefined) ?? [];
      body('JSON body cut short', '{"');
      body('JSON body an array', '[]');
      body('JSON body a string', '"text"');
      add('undocumented content type', { contentType: 'application/xml', body: '<a/>' }, required.length > 0);
      for (const name of required) {
        const { [name]: _left, ...rest } = valid;
        body(`body ${name} missing`, JSON.stringify(rest));
      }
      for (const [name, schema] of Object.entries(
        (json.schema.properties ?? {}) as Record<string, JsonObject>,
      )) {
        if (flat(schema).readOnly === true) continue;
        const types = typesOf(schema);
        const wrong = wrongType(types);
        if (wrong !== undefined)
          body(`body ${name} of a wrong type`, JSON.stringify({ ...valid, [name]: wrong }));
        for (const bound of outOfBounds(schema))
          body(`body ${name} ${bound.label}`, jsonWith(valid, name, bound.literal));
        if (types.has('string'))
          for (const text of CONTROL)
            body(`body ${name} ${JSON.stringify(text)}`, JSON.stringify({ ...valid, [name]: text }), false);
      }
    }
    if (media.some((m) => m.type === 'multipart/form-data') && base.body instanceof Uint8Array) {
      add('multipart truncated', { body: base.body.subarray(0, Math.floor(base.body.length / 2)) }, false);
      add('multipart without boundary', { contentType: 'multipart/form-data' }, false);
    }
    return found;
  }

  /** One mutation of `variant`, drawn; undefined when the operation takes nothing that can be wrong. */
  function invalidRequest(entry: OperationEntry, variant: Variant, random: Random): Mutation | undefined {
    const all = mutationsOf(entry, variant);
    if (all.length === 0) return undefined;
    // Mostly the mutations the spec refuses: they are the ones with a verdict beyond "no 5xx".
    const refused = all.filter((mutation) => mutation.mustRefuse);
    return random.chance(0.75) && refused.length > 0 ? random.pick(refused) : random.pick(all);
  }

  return { mutationsOf, invalidRequest };
}
