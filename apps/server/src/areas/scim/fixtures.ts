// The single sign-on settings and SCIM tokens of a fixtures file's groups (tokens stored as SHA-256).
import { hashToken } from '../../core/access/caller.js';
import type { AreaFixtures } from '../../core/area.js';
import { insertGroupSso } from './store.js';

export const scimFixtures: AreaFixtures = {
  after: ['groups'],
  async load({ fixtures, trx, now, groups }) {
    for (const group of fixtures.groups) {
      if (!group.saml) continue;
      const fullPath = group.parent ? `${group.parent}/${group.path}` : group.path;
      await insertGroupSso(
        trx,
        groups.get(fullPath),
        {
          enabled: group.saml.enabled,
          defaultMembershipRole: group.saml.default_membership_role ?? 10,
          scimTokenSha256: group.saml.scim_token ? hashToken(group.saml.scim_token) : undefined,
        },
        now,
      );
    }
  },
};
