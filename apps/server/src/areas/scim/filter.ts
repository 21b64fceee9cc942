// The SCIM `filter` of the user list (RFC 7644, section 3.4.2.2), as far as GitLab reads it: one attribute,
// the `eq` operator and a quoted value. `id` and `externalId` name the external UID, `userName` the
// username; attribute names and the operator are compared without case, as RFC 7644 asks.

/** What a supported filter selects: the identity with this external UID, or the user with this username. */
export type UserFilter = { attribute: 'extern_uid' | 'username'; value: string };

/** The filter cannot be served: another operator, attribute or form (400, `scimType: invalidFilter`). */
export class UnsupportedFilter extends Error {
  constructor(readonly filter: string) {
    super('Unsupported Filter');
    this.name = 'UnsupportedFilter';
  }
}

const ATTRIBUTES: Record<string, UserFilter['attribute']> = {
  id: 'extern_uid',
  externalid: 'extern_uid',
  username: 'username',
};

// `attribute eq "value"`: the value is a JSON string (RFC 7644 compValue), so `\"` and `\\` escape.
const EQUALITY = /^\s*([A-Za-z][A-Za-z0-9._:-]*)\s+([A-Za-z]+)\s+("(?:[^"\\]|\\.)*")\s*$/;

/** Reads a filter; throws UnsupportedFilter for anything but `id|externalId|userName eq "value"`. */
export function parseUserFilter(filter: string): UserFilter {
  const match = EQUALITY.exec(filter);
  if (!match) throw new UnsupportedFilter(filter);
  const [, name = '', operator = '', quoted = ''] = match;
  const attribute = ATTRIBUTES[name.toLowerCase()];
  if (attribute === undefined || operator.toLowerCase() !== 'eq') throw new UnsupportedFilter(filter);
  let value: unknown;
  try {
    value = JSON.parse(quoted);
  } catch {
    throw new UnsupportedFilter(filter);
  }
  if (typeof value !== 'string' || value === '') throw new UnsupportedFilter(filter);
  return { attribute, value };
}
