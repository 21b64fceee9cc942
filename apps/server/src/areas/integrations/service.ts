// Project integrations (document 2, 4.16; GitLab's lib/api/integrations.rb): list the active ones, and for
// every slug set up or edit, read and delete its settings. Every operation needs a signed-in maintainer or
// owner (GitLab's `authenticate!` and `authorize_admin_project`): 401 anonymous, 404 for a project the caller
// cannot see, 403 below maintainer. The same code serves every slug, reading its description (catalog.ts).
import { AccessLevel, type ProjectAccess, resolveProjectForSignedIn } from '../../core/access/access.js';
import type { Caller, ScopeNeed } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { notFound } from '../../core/http/errors.js';
import { nowIso } from '../../core/store/database.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { higherTier } from '../features/index.js';
import { CATALOG, type Slug } from './catalog.js';
import {
  type IntegrationListItem,
  type IntegrationSettings,
  presentListItem,
  presentSettings,
} from './present.js';
import { settingsAfterPut } from './settings.js';
import { disableIntegration, findIntegration, listActiveIntegrations, upsertIntegration } from './store.js';

function projectFor(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  scope: ScopeNeed,
): Promise<ProjectAccess> {
  return resolveProjectForSignedIn(context.db, caller, idOrPath, scope, AccessLevel.MAINTAINER);
}

/** A higher-tier slug does not exist on the free tier (GitLab CE has no such route). */
function requireAvailable(context: ServerContext, slug: Slug): void {
  if (CATALOG[slug].premium && !higherTier(context)) throw notFound();
}

export async function listIntegrations(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  window: PageWindow,
): Promise<Page<IntegrationListItem>> {
  const { project } = await projectFor(context, caller, idOrPath, 'read_api');
  const page = await listActiveIntegrations(context.db, project.id, window);
  return { items: page.items.map(presentListItem), total: page.total };
}

export async function getIntegration(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  slug: Slug,
): Promise<IntegrationSettings> {
  requireAvailable(context, slug);
  const { project } = await projectFor(context, caller, idOrPath, 'read_api');
  const row = await findIntegration(context.db, project.id, slug);
  if (!row) throw notFound('Integration');
  return presentSettings(slug, row);
}

/**
 * Creates or edits the integration and activates it. The request's required parameters, their types and
 * values were checked against the slug's body schema before this runs (400 `"<name> is missing"`).
 */
export async function putIntegration(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  slug: Slug,
  body: Readonly<Record<string, unknown>>,
): Promise<IntegrationSettings> {
  requireAvailable(context, slug);
  const { project } = await projectFor(context, caller, idOrPath, 'api');
  // Read and write in one transaction: a concurrent PUT's settings are never half merged into this one.
  const row = await context.db.transaction().execute(async (trx) => {
    const existing = await findIntegration(trx, project.id, slug);
    return upsertIntegration(trx, project.id, slug, settingsAfterPut(slug, existing, body), nowIso());
  });
  return presentSettings(slug, row);
}

/**
 * GitLab's "Disable an integration": the integration stops firing and leaves the active list, and its settings
 * stay, so a later read answers 200 with `active: false` and a PUT turns it on again. 204 also when it was
 * never set up (GitLab answers so).
 */
export async function removeIntegration(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  slug: Slug,
): Promise<void> {
  requireAvailable(context, slug);
  const { project } = await projectFor(context, caller, idOrPath, 'api');
  await disableIntegration(context.db, project.id, slug, nowIso());
}
