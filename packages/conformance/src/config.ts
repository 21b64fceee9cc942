// What the suite needs to know about the server under test: where it is, a token per role, and fixtures.
// A server other than this repository's needs the objects described under `fixtures` (users, groups,
// projects, memberships), made however that server makes them; apps/server/fixtures/demo.json is an example
// that fits, and demoConfig() below is the configuration for it.
import { readFileSync } from 'node:fs';

export type Role =
  | 'admin'
  | 'owner'
  | 'maintainer'
  | 'developer'
  | 'reporter'
  | 'guest'
  | 'outsider'
  | 'developerReadRepository'
  | 'revoked';

/** The roles that are users of their own: `developerReadRepository` and `revoked` are the developer's tokens. */
export type UserRole = Exclude<Role, 'developerReadRepository' | 'revoked'>;

/** The user behind a role's token. */
export interface FixtureUser {
  /** Numeric user ID (user grants of protected branches take it). */
  id: number;
  /** Login name (feature gates' `user`, the pipelines' `username` filter and `user.username`). */
  username: string;
  /** Display name (the pipelines' `name` filter and `user.name`, descriptions of user grants). */
  name: string;
}

export interface ConformanceConfig {
  /** Scheme, host and port of the server, without `/api/v4`. */
  baseUrl: string;
  /**
   * A personal access token per role, all with the `api` scope unless said otherwise. The roles are
   * access levels that hold in `fixtures.namespace` and in the three projects (as they do when the projects
   * belong to `namespace`): `owner` Owner (50), `maintainer` Maintainer (40), `developer` Developer (30),
   * `reporter` Reporter (20), `guest` Guest (10). `admin` is an instance administrator; `outsider` is
   * signed in but no member of `namespace` or of the projects. `developerReadRepository` is a token of the
   * developer with only the `read_repository` scope; `revoked` is a revoked token of the developer, which
   * the server must refuse.
   */
  tokens: Record<Role, string>;
  /** Objects the server was started with (the demo fixtures of apps/server, or equivalents). */
  fixtures: {
    /**
     * Full path of a public project. Its default branch `main` is protected (push and merge 40:
     * maintainers) and holds `README.md`, `src/index.html`, `docs/guide/getting started.md` and a CI
     * configuration `.collab-ci.yml` whose pipeline succeeds. The tests add branches, files, protected
     * branch rules, pipelines, deploy keys, mirrors and merge requests (which they close) to it, and export
     * it. Its merge requests from the start include an open one from `unprotectedBranch` into `main` by the
     * developer, with the maintainer as reviewer, and a merged one; `privateProject` has at least one.
     */
    publicProject: string;
    /**
     * Full path of a private project with `README.md` on its protected default branch `main`; the
     * outsider has no access.
     */
    privateProject: string;
    /** Full path of an internal project with `README.md` on its default branch `main`. */
    internalProject: string;
    /**
     * A branch of the public project that is not protected and not merged: it has a commit of its own,
     * and that commit has a parent.
     */
    unprotectedBranch: string;
    /**
     * Full path of a public group in which the owner and the maintainer may create and import projects
     * and the developer may not (the access levels of `tokens` hold here). The tests import projects into
     * it under new paths, and name it as a group actor of feature gates.
     */
    namespace: string;
    /**
     * Full path of a private group the outsider cannot see (404) and in which the maintainer may create
     * projects, for example a private subgroup of `namespace`: a public project may not be imported into it.
     */
    hiddenGroup: string;
    /**
     * A private group that `sharedProject` is shared with and `publicProject` is not; the maintainer is no
     * member of it, so cannot see it (404). Group grants of protected branches take its `id` and describe
     * it by its `name`.
     */
    sharedGroup: { id: number; path: string; name: string };
    /** Full path of a project the maintainer maintains that is shared with `sharedGroup`. */
    sharedProject: string;
    /** The user behind each role's token. */
    users: Record<UserRole, FixtureUser>;
    /**
     * Who may create top-level groups (`can_create_group`): `allowed` may, `refused` may not. The tests
     * create groups (named with the run's suffix) as `allowed`, with subgroups, projects and members of
     * their own, and delete them again. Without it, the tests that create top-level groups are skipped.
     */
    groupCreation?: { allowed: UserRole; refused: UserRole };
    /**
     * Project-list fixtures. `publicProject` is starred by the owner, the developer and the outsider (in
     * that order) and has the custom attribute `location` = `Antarctica`; `privateProject` is starred by the
     * developer and has `location` = `Atlantis`; `internalProject` has the issues feature disabled. The
     * owner's personal namespace holds `personalPublic` (its default branch has only `install.sh` (75%) and
     * `bin/greet.py` (25%) of code besides a README and package.json; merge requests disabled) and
     * `personalPrivate` (an empty repository). No other project has stars or custom attributes.
     */
    projects: { personalPublic: string; personalPrivate: string };
    /**
     * SCIM provisioning (served under `/api/scim/v2`): `group` is the full path of a group whose single
     * sign-on is on and whose SCIM token is `token` (sent as `Authorization: Bearer`); `groupWithoutSso` is
     * the full path of a group whose single sign-on is off. The tests provision users (named with the run's
     * suffix) into `group` and deprovision them again. Without it, the SCIM tests are skipped.
     */
    scim?: { group: string; token: string; groupWithoutSso: string };
    /**
     * A role whose user is the only owner of a group (in the demo, the owner of `namespace`): the tests check
     * that `DELETE /users/:id` refuses to delete that user (409) and so never deletes it. Without it, that
     * test is skipped.
     */
    soleOwner?: UserRole;
  };
}

/** The configuration matching apps/server/fixtures/demo.json (its users and groups get IDs in file order). */
export function demoConfig(baseUrl: string): ConformanceConfig {
  return {
    baseUrl,
    tokens: {
      admin: 'collab-demo-admin-token',
      owner: 'collab-demo-owner-token',
      maintainer: 'collab-demo-maintainer-token',
      developer: 'collab-demo-developer-token',
      reporter: 'collab-demo-reporter-token',
      guest: 'collab-demo-guest-token',
      outsider: 'collab-demo-outsider-token',
      developerReadRepository: 'collab-demo-developer-read-repository-token',
      revoked: 'collab-demo-developer-revoked-token',
    },
    fixtures: {
      publicProject: 'acme/website',
      privateProject: 'acme/backend',
      internalProject: 'acme/tools',
      unprotectedBranch: 'develop',
      namespace: 'acme',
      hiddenGroup: 'acme/platform',
      sharedGroup: { id: 3, path: 'partners', name: 'Partners' },
      sharedProject: 'acme/platform/infra',
      users: {
        admin: { id: 1, username: 'admin', name: 'Ada Admin' },
        owner: { id: 2, username: 'owner', name: 'Olga Owner' },
        maintainer: { id: 3, username: 'maintainer', name: 'Mona Maintainer' },
        developer: { id: 4, username: 'developer', name: 'Dev Developer' },
        reporter: { id: 5, username: 'reporter', name: 'Rita Reporter' },
        guest: { id: 6, username: 'guest', name: 'Gus Guest' },
        outsider: { id: 7, username: 'outsider', name: 'Otto Outsider' },
      },
      projects: { personalPublic: 'owner/dotfiles', personalPrivate: 'owner/diary' },
      groupCreation: { allowed: 'owner', refused: 'guest' },
      scim: { group: 'acme', token: 'collab-demo-acme-scim-token', groupWithoutSso: 'partners' },
      soleOwner: 'owner',
    },
  };
}

const USER_ROLES: readonly UserRole[] = [
  'admin',
  'owner',
  'maintainer',
  'developer',
  'reporter',
  'guest',
  'outsider',
];
const ROLES: readonly Role[] = [...USER_ROLES, 'developerReadRepository', 'revoked'];

/** The fields a config file lacks, so that one written for an older suite fails with their names. */
function missingFields(config: ConformanceConfig): string[] {
  const missing: string[] = [];
  const fixtures = (config.fixtures ?? {}) as Partial<ConformanceConfig['fixtures']>;
  if (typeof config.baseUrl !== 'string') missing.push('baseUrl');
  for (const role of ROLES) if (typeof config.tokens?.[role] !== 'string') missing.push(`tokens.${role}`);
  const paths = [
    'publicProject',
    'privateProject',
    'internalProject',
    'unprotectedBranch',
    'namespace',
    'hiddenGroup',
    'sharedProject',
  ] as const;
  for (const name of paths) if (typeof fixtures[name] !== 'string') missing.push(`fixtures.${name}`);
  const group = fixtures.sharedGroup;
  if (group === undefined) missing.push('fixtures.sharedGroup');
  else
    for (const field of ['id', 'path', 'name'] as const)
      if (group[field] === undefined) missing.push(`fixtures.sharedGroup.${field}`);
  for (const name of ['personalPublic', 'personalPrivate'] as const)
    if (typeof fixtures.projects?.[name] !== 'string') missing.push(`fixtures.projects.${name}`);
  if (fixtures.users === undefined) missing.push('fixtures.users');
  else
    for (const role of USER_ROLES) {
      const user = fixtures.users[role];
      if (user === undefined) missing.push(`fixtures.users.${role}`);
      else
        for (const field of ['id', 'username', 'name'] as const)
          if (user[field] === undefined) missing.push(`fixtures.users.${role}.${field}`);
    }
  return missing;
}

/**
 * The configuration from the environment: COLLAB_CONFORMANCE_CONFIG, a whole ConformanceConfig, either the
 * name of a JSON file or the JSON itself (a value starting with `{`: how `collab-conformance run` hands it to
 * its tests, so that no copy of the tokens is written); else the demo configuration at COLLAB_BASE_URL;
 * without either, none (then the suite starts its own server).
 */
export function configFromEnvironment(env: NodeJS.ProcessEnv = process.env): ConformanceConfig | undefined {
  const value = env.COLLAB_CONFORMANCE_CONFIG;
  if (value) {
    const inline = value.trimStart().startsWith('{');
    const config = JSON.parse(inline ? value : readFileSync(value, 'utf8')) as ConformanceConfig;
    const missing = missingFields(config);
    if (missing.length > 0)
      throw new Error(
        `${inline ? 'the config' : value} lacks ${missing.join(', ')} (see ConformanceConfig in @collab/conformance)`,
      );
    return config;
  }
  if (env.COLLAB_BASE_URL) return demoConfig(env.COLLAB_BASE_URL);
  return undefined;
}
