// Provisioned identities as the SCIM API shows them (GitLab's EE::API::Entities::Scim::User and ::Users).
import type { Schemas } from '../../core/http/types.js';
import type { IdentityRow } from './store.js';

type ScimUser = Schemas['ScimUser'];
type ScimUserList = Schemas['ScimUserList'];

export function presentScimUser(row: IdentityRow): ScimUser {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: row.extern_uid,
    // An identity that exists is provisioned: deprovisioning removes it.
    active: true,
    'name.formatted': row.name,
    userName: row.username,
    meta: { resourceType: 'User' },
    emails: [{ type: 'work', value: row.email, primary: true }],
  };
}

export function presentScimUserList(
  rows: readonly IdentityRow[],
  total: number,
  itemsPerPage: number,
  startIndex: number,
): ScimUserList {
  return {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
    totalResults: total,
    itemsPerPage,
    startIndex,
    Resources: rows.map(presentScimUser),
  };
}
