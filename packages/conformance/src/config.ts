// What the suite needs to know about the server under test: where it is, a token per role, and fixtures.
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

export interface ConformanceConfig {
  /** Scheme, host and port of the server, without `/api/v4`. */
  baseUrl: string;
  /** A token per role; `revoked` is a token the server must refuse. */
  tokens: Record<Role, string>;
  /** Objects the server was started with (the demo fixtures of apps/server, or equivalents). */
  fixtures: {
    /** Full path of a public project, with README.md on its protected default branch `main`. */
    publicProject: string;
    /** Full path of a private project; the outsider has no access. */
    privateProject: string;
    /** Full path of an internal project. */
    internalProject: string;
    /** A branch of the public project that is not protected and not merged. */
    unprotectedBranch: string;
  };
}

/** The configuration matching apps/server/fixtures/demo.json. */
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
    },
  };
}

/** A config file (JSON) named by COLLAB_CONFORMANCE_CONFIG, or none: then the suite starts its own server. */
export function configFromEnvironment(env: NodeJS.ProcessEnv = process.env): ConformanceConfig | undefined {
  const file = env.COLLAB_CONFORMANCE_CONFIG;
  if (file) return JSON.parse(readFileSync(file, 'utf8')) as ConformanceConfig;
  if (env.COLLAB_BASE_URL) return demoConfig(env.COLLAB_BASE_URL);
  return undefined;
}
