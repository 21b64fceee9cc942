// What GET /version and GET /metadata answer. `version` is the GitLab release whose REST API v4 behaviour this
// server follows: clients such as python-gitlab parse it as a GitLab version (MAJOR.MINOR.PATCH) and switch
// features on it, so it is GitLab's numbering, not this server's. `revision` names this server's own build.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import type { Schemas } from '../../core/http/types.js';
import { PACKAGE_DIR } from '../../serverFiles.js';
import { higherTier } from '../features/index.js';

/** The GitLab release whose API v4 the spec mirrors (the sources its "not shown" parts follow). */
export const GITLAB_API_VERSION = '17.0.0';

type Version = Schemas['Version'];

/** `collab-<version of @collab/server>`: read once, from the server's package.json. */
function serverRevision(): string {
  const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return `collab-${typeof manifest.version === 'string' ? manifest.version : 'unknown'}`;
}

const REVISION = serverRevision();

/**
 * The version for a signed-in caller (401 anonymous, as GitLab's `authenticate!`). The Kubernetes agent
 * server is not part of this server: it is reported disabled. The higher tier is what GitLab's Enterprise
 * Edition brings, so `enterprise` follows the instance's tier.
 */
export function getVersion(context: ServerContext, caller: Caller): Version {
  requireUser(caller);
  requireScope(caller, 'read_api');
  return {
    version: GITLAB_API_VERSION,
    revision: REVISION,
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: higherTier(context),
  };
}
