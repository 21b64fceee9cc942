// The users of a fixtures file and their personal access tokens (stored as SHA-256, as the API stores them).
import { hashToken } from '../../core/access/caller.js';
import type { AreaFixtures } from '../../core/area.js';
import type { FixtureUserProfile } from '../../core/store/fixturesFile.js';
import { insertPersonalAccessToken, insertUser } from './store.js';

/** A fixture user's profile as `users` columns; what it leaves out keeps the column's default. */
function userProfileColumns(profile: FixtureUserProfile | undefined) {
  if (!profile) return {};
  const flag = (value: boolean | undefined): number | undefined =>
    value === undefined ? undefined : value ? 1 : 0;
  const { external, private_profile, can_create_group, ...texts } = profile;
  return {
    ...texts,
    external: flag(external),
    private_profile: flag(private_profile),
    can_create_group: flag(can_create_group),
  };
}

export const usersFixtures: AreaFixtures = {
  after: [],
  async load({ fixtures, trx, now, users }) {
    for (const user of fixtures.users) {
      const id = await insertUser(trx, {
        username: user.username,
        name: user.name,
        email: user.email,
        state: user.state ?? 'active',
        is_admin: user.admin ? 1 : 0,
        avatar_url: null,
        created_at: now,
        updated_at: now,
        ...userProfileColumns(user.profile),
      });
      users.set(user.username, id);
      for (const token of user.tokens)
        await insertPersonalAccessToken(trx, {
          user_id: id,
          name: token.name,
          token_sha256: hashToken(token.token),
          scopes: JSON.stringify(token.scopes),
          expires_at: token.expires_at ?? null,
          revoked: token.revoked ? 1 : 0,
          created_at: now,
        });
    }
  },
};
