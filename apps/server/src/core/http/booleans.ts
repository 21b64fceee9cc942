// Booleans as GitLab reads them (Grape's boolean coercion): JSON booleans, or these spellings in a query
// string, a form field or a JSON string. Python clients send `True`/`False`, others `1`/`0` or `true`.

const TRUE_SPELLINGS: ReadonlySet<string> = new Set([
  '1',
  'on',
  'On',
  'ON',
  't',
  'T',
  'true',
  'True',
  'TRUE',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
]);
const FALSE_SPELLINGS: ReadonlySet<string> = new Set([
  '0',
  'off',
  'Off',
  'OFF',
  'f',
  'F',
  'false',
  'False',
  'FALSE',
  'n',
  'N',
  'no',
  'No',
  'NO',
]);

/** A boolean in one of Grape's spellings (or a JSON boolean, or the numbers 1 and 0); anything else: undefined. */
export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    if (TRUE_SPELLINGS.has(value)) return true;
    if (FALSE_SPELLINGS.has(value)) return false;
    return undefined;
  }
  if (value === 1) return true;
  if (value === 0) return false;
  return undefined;
}
