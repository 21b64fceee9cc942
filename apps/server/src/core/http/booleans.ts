// Booleans as clients send them: JSON booleans, or form and query strings.

/** `true`/`false`, or the strings `true`, `1`, `false`, `0`; anything else is undefined. */
export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return undefined;
}
