import { describe, expect, it } from 'vitest';
import { fastQueryParser } from './queryParser.js';

describe('fastQueryParser', () => {
  const viaExtended: string[] = [];
  const parse = fastQueryParser((text) => {
    viaExtended.push(String(text));
    return { extended: text };
  });

  it('parses a query without brackets as qs does: repeated names, empty values, + and %-escapes', () => {
    expect(parse('ref=main&a=1&a=2&flag&q=a+b%2Fc')).toEqual({
      ref: 'main',
      a: ['1', '2'],
      flag: '',
      q: 'a b/c',
    });
    expect(Object.getPrototypeOf(parse('x=1'))).toBe(Object.prototype);
    expect(parse('')).toEqual({});
    expect(viaExtended).toEqual([]);
  });

  it('gives a missing query (null, a URL without `?`) an empty plain object of its own each time', () => {
    const first = parse(null);
    expect(first).toEqual({});
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
    expect(parse(null)).not.toBe(first);
    expect(viaExtended).toEqual([]);
  });

  it('keeps a __proto__ key an own property', () => {
    const parsed = parse('__proto__=x') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
  });

  it('leaves bracket forms, plain or %-encoded, to the extended parser', () => {
    expect(parse('custom_attributes[a]=b')).toEqual({ extended: 'custom_attributes[a]=b' });
    expect(parse('upload%5Burl%5D=x')).toEqual({ extended: 'upload%5Burl%5D=x' });
    expect(parse('x%5b%5d=1')).toEqual({ extended: 'x%5b%5d=1' });
  });
});
