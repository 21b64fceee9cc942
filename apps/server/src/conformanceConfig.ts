// The configuration of the conformance suite (`collab-conformance run --config FILE`) for a server seeded
// with the demo fixtures: which token each role uses and which fixture objects the tests name. Written by
// `--write-conformance-config FILE`. The shape is @collab/conformance's ConformanceConfig (src/config.ts);
// the server cannot import that package (it depends on the server), so the shape is written out here and a
// conformance test checks that the file written equals its demoConfig().
import { writeFileSync } from 'node:fs';
import type { Fixtures } from './core/store/fixturesFile.js';

/** The roles of the suite; in the demo fixtures each is the user of that name. */
const USER_ROLES = ['admin', 'owner', 'maintainer', 'developer', 'reporter', 'guest', 'outsider'] as const;

/** Which fixture objects the suite's tests use (see ConformanceConfig['fixtures'] for what each must be). */
const DEMO_CHOICES = {
  publicProject: 'acme/website',
  privateProject: 'acme/backend',
  internalProject: 'acme/tools',
  unprotectedBranch: 'develop',
  namespace: 'acme',
  hiddenGroup: 'acme/platform',
  sharedGroup: 'partners',
  sharedProject: 'acme/platform/infra',
  personalPublic: 'owner/dotfiles',
  personalPrivate: 'owner/diary',
  /** A group with single sign-on on and a SCIM token, and one with it off. */
  scimGroup: 'acme',
  groupWithoutSso: 'partners',
  /** A role that may create top-level groups, and one that may not (`can_create_group`). */
  groupCreator: 'owner',
  notGroupCreator: 'guest',
};

type Fixture<T> = T extends (infer U)[] ? U : never;

function fail(what: string): never {
  throw new Error(`--write-conformance-config: the fixtures lack ${what} (it describes the demo fixtures)`);
}

/** Builds the configuration from the fixtures, checking that every object it names is there. */
export function conformanceConfigFor(fixtures: Fixtures, baseUrl: string): Record<string, unknown> {
  const user = (username: string) => {
    const index = fixtures.users.findIndex((u) => u.username === username);
    const found = fixtures.users[index] ?? fail(`the user ${username}`);
    // Users get IDs in file order.
    return { id: index + 1, user: found };
  };
  const apiToken = (u: Fixture<Fixtures['users']>) =>
    u.tokens.find((t) => !t.revoked && t.scopes.includes('api'))?.token ??
    fail(`an api token of ${u.username}`);
  const developer = user('developer').user;

  const tokens: Record<string, string> = {};
  const users: Record<string, { id: number; username: string; name: string }> = {};
  for (const role of USER_ROLES) {
    const { id, user: u } = user(role);
    tokens[role] = apiToken(u);
    users[role] = { id, username: u.username, name: u.name };
  }
  tokens.developerReadRepository =
    developer.tokens.find((t) => !t.revoked && t.scopes.length === 1 && t.scopes[0] === 'read_repository')
      ?.token ?? fail('a read_repository token of developer');
  tokens.revoked = developer.tokens.find((t) => t.revoked)?.token ?? fail('a revoked token of developer');

  const fullPath = (group: Fixture<Fixtures['groups']>) =>
    group.parent ? `${group.parent}/${group.path}` : group.path;
  const groupIndex = fixtures.groups.findIndex((g) => fullPath(g) === DEMO_CHOICES.sharedGroup);
  const sharedGroup = fixtures.groups[groupIndex] ?? fail(`the group ${DEMO_CHOICES.sharedGroup}`);
  for (const path of [DEMO_CHOICES.namespace, DEMO_CHOICES.hiddenGroup])
    if (!fixtures.groups.some((g) => fullPath(g) === path)) fail(`the group ${path}`);
  const scimGroup = fixtures.groups.find((g) => fullPath(g) === DEMO_CHOICES.scimGroup);
  const scimToken = scimGroup?.saml?.enabled ? scimGroup.saml.scim_token : undefined;
  if (!scimToken) fail(`a SCIM token of ${DEMO_CHOICES.scimGroup} with single sign-on on`);
  if (fixtures.groups.find((g) => fullPath(g) === DEMO_CHOICES.groupWithoutSso)?.saml?.enabled)
    fail(`single sign-on off in ${DEMO_CHOICES.groupWithoutSso}`);
  const projectPaths = [
    DEMO_CHOICES.publicProject,
    DEMO_CHOICES.privateProject,
    DEMO_CHOICES.internalProject,
    DEMO_CHOICES.sharedProject,
    DEMO_CHOICES.personalPublic,
    DEMO_CHOICES.personalPrivate,
  ];
  for (const path of projectPaths)
    if (!fixtures.projects.some((p) => `${p.namespace}/${p.path}` === path)) fail(`the project ${path}`);
  // `can_create_group` defaults to true.
  if (user(DEMO_CHOICES.groupCreator).user.profile?.can_create_group === false)
    fail(`can_create_group of ${DEMO_CHOICES.groupCreator}`);
  if (user(DEMO_CHOICES.notGroupCreator).user.profile?.can_create_group !== false)
    fail(`can_create_group false for ${DEMO_CHOICES.notGroupCreator}`);
  // The owner role's user must be the only owner of the namespace: the suite checks that DELETE /users/:id
  // refuses it (409), which would otherwise delete a user every other test needs.
  const namespaceOwners = (fixtures.groups.find((g) => fullPath(g) === DEMO_CHOICES.namespace)?.members ?? [])
    .filter((member) => member.access_level >= 50)
    .map((member) => member.username);
  if (namespaceOwners.join() !== 'owner') fail(`the owner as the only owner of ${DEMO_CHOICES.namespace}`);

  return {
    baseUrl,
    tokens,
    fixtures: {
      publicProject: DEMO_CHOICES.publicProject,
      privateProject: DEMO_CHOICES.privateProject,
      internalProject: DEMO_CHOICES.internalProject,
      unprotectedBranch: DEMO_CHOICES.unprotectedBranch,
      namespace: DEMO_CHOICES.namespace,
      hiddenGroup: DEMO_CHOICES.hiddenGroup,
      // Groups get IDs in file order.
      sharedGroup: { id: groupIndex + 1, path: fullPath(sharedGroup), name: sharedGroup.name },
      sharedProject: DEMO_CHOICES.sharedProject,
      users,
      projects: {
        personalPublic: DEMO_CHOICES.personalPublic,
        personalPrivate: DEMO_CHOICES.personalPrivate,
      },
      groupCreation: { allowed: DEMO_CHOICES.groupCreator, refused: DEMO_CHOICES.notGroupCreator },
      scim: {
        group: DEMO_CHOICES.scimGroup,
        token: scimToken,
        groupWithoutSso: DEMO_CHOICES.groupWithoutSso,
      },
      soleOwner: 'owner',
    },
  };
}

export function writeConformanceConfig(file: string, fixtures: Fixtures, baseUrl: string): void {
  writeFileSync(file, `${JSON.stringify(conformanceConfigFor(fixtures, baseUrl), null, 2)}\n`);
}
