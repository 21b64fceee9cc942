// What a SCIM PatchOp message changes (RFC 7644, section 3.5.2), read as GitLab reads it: `Replace` and `Add`
// operations of the mapped attributes, in order (a later one wins); other operations and attributes are
// ignored. Without `path`, `value` is an object of attribute names and values (Okta's form).
import type { RequestBody } from '../../core/http/types.js';
import { scimBadRequest } from './errors.js';
import { usernameFrom } from './usernames.js';

export type PatchOperation = RequestBody<'updateScimUser'>['Operations'][number];

export interface ScimUserChanges {
  externUid?: string;
  name?: string;
  email?: string;
  username?: string;
  active?: boolean;
}

/** A plausible e-mail address: something, `@`, a domain; no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function readOperations(operations: readonly PatchOperation[]): ScimUserChanges {
  const changes: ScimUserChanges = {};
  for (const operation of operations) {
    const op = operation.op.toLowerCase();
    if (op !== 'replace' && op !== 'add') continue;
    if (operation.path !== undefined) {
      apply(changes, operation.path, operation.value);
    } else if (isObject(operation.value)) {
      for (const [attribute, value] of Object.entries(operation.value)) apply(changes, attribute, value);
    } else {
      throw scimBadRequest('An operation without path needs an object value', 'invalidValue');
    }
  }
  return changes;
}

/** Attribute paths compared without case or extra spaces (`emails[type eq "work"].value`). */
function normalPath(path: string): string {
  return path.trim().toLowerCase().replace(/\s+/g, ' ');
}

function apply(changes: ScimUserChanges, path: string, value: unknown): void {
  switch (normalPath(path)) {
    case 'id':
    case 'externalid':
      changes.externUid = text(path, value);
      return;
    case 'name.formatted':
      changes.name = text(path, value);
      return;
    case 'name': {
      const name = nameOf(value);
      if (name === undefined) throw invalid(path);
      changes.name = name;
      return;
    }
    case 'emails[type eq "work"].value': {
      const email = text(path, value);
      if (!EMAIL.test(email) || email.length > 255) throw invalid(path, 'is not a valid e-mail address');
      changes.email = email;
      return;
    }
    case 'username': {
      const username = usernameFrom(text(path, value));
      if (username === '') throw invalid(path, 'gives no valid username');
      changes.username = username;
      return;
    }
    case 'active':
      changes.active = bool(path, value);
      return;
    default:
      // GitLab ignores attributes it does not map (displayName, title, extension schemas …).
      return;
  }
}

function text(path: string, value: unknown): string {
  if (typeof value !== 'string') throw invalid(path, 'must be a string');
  if (value.trim() === '') throw invalid(path, "can't be blank");
  if (value.length > 255) throw invalid(path, 'is too long (maximum is 255 characters)');
  return value;
}

/** `active` as a boolean or its text (`"False"` from Azure AD), as GitLab's value parser reads it. */
function bool(path: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalid(path, 'must be a boolean');
}

/** A name object's `formatted`, else its `givenName` and `familyName` joined. */
export function nameOf(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const part = (key: string): string | undefined => {
    const found = value[key];
    return typeof found === 'string' && found.trim() !== '' ? found : undefined;
  };
  const name = part('formatted') ?? [part('givenName'), part('familyName')].filter(Boolean).join(' ');
  return name === '' ? undefined : name;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(path: string, reason = 'is invalid') {
  return scimBadRequest(`${path} ${reason}`, 'invalidValue');
}
