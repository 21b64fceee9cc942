// Feature flags (document 2, section 4.13): administrators list, set and delete them; the server asks
// isFeatureEnabled() before serving what sits behind one. A feature that was never set is off.

import { findProject } from '../../core/access/access.js';
import { type Caller, type CallerUser, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, badRequest, forbidden } from '../../core/http/errors.js';
import type { RequestBody, Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import {
  decodeGates,
  FEATURE_GROUPS,
  type FeatureActor,
  featureState,
  flipperId,
  type Gates,
  gatesAllow,
  gateViews,
  parseGateValue,
} from './gates.js';

export type Feature = Schemas['Feature'];
export type SetFeatureGateBody = RequestBody<'setFeatureGate'>;

const FEATURE_NAME = /^[A-Za-z0-9_]{1,255}$/;

async function loadGates(db: Db, names: readonly string[]): Promise<Map<string, Gates>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .selectFrom('feature_gates')
    .select(['feature_name', 'key', 'value'])
    .where('feature_name', 'in', names)
    .execute();
  return new Map(names.map((name) => [name, decodeGates(rows.filter((row) => row.feature_name === name))]));
}

/** Whether feature `name` is on, for everyone or (with actors) for one of `actors`. */
export async function isFeatureEnabled(
  db: Db,
  name: string,
  actors: FeatureActor | readonly FeatureActor[] = [],
): Promise<boolean> {
  const gates = (await loadGates(db, [name])).get(name);
  if (!gates) return false;
  return gatesAllow(name, gates, 'type' in actors ? [actors] : actors);
}

export function userActor(user: CallerUser): FeatureActor {
  return { type: 'User', id: user.id, isAdmin: user.isAdmin };
}

function presentFeature(name: string, gates: Gates): Feature {
  return { name, state: featureState(gates), gates: gateViews(gates) };
}

function requireAdmin(caller: Caller, scope: 'read_api' | 'api'): void {
  const user = requireUser(caller);
  requireScope(caller, scope);
  if (!user.isAdmin) throw forbidden();
}

export async function listFeatures(
  context: ServerContext,
  caller: Caller,
  window: PageWindow,
): Promise<Page<Feature>> {
  requireAdmin(caller, 'read_api');
  const page = await readPageOf(
    context.db,
    context.db.selectFrom('features'),
    (query) => query.select('name').orderBy('name'),
    window,
  );
  const names = page.items.map((row) => row.name);
  const gates = await loadGates(context.db, names);
  return {
    items: names.map((name) => presentFeature(name, gates.get(name) ?? decodeGates([]))),
    total: page.total,
  };
}

/** A comma-separated list of names, each resolved to an actor; an unknown one is a 400, as in GitLab. */
async function resolveActors(
  names: string | undefined,
  resolve: (name: string) => Promise<FeatureActor | undefined>,
): Promise<FeatureActor[]> {
  if (names === undefined || names.trim() === '') return [];
  const actors: FeatureActor[] = [];
  for (const name of names
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const actor = await resolve(name);
    if (!actor) throw badRequest(`${name} is not found!`);
    actors.push(actor);
  }
  return actors;
}

async function gateTargets(
  db: Db,
  body: SetFeatureGateBody,
): Promise<{ actors: string[]; groups: string[] }> {
  const users = await resolveActors(body.user, async (username) => {
    const row = await db
      .selectFrom('users')
      .select(['id', 'is_admin'])
      .where('username', '=', username)
      .executeTakeFirst();
    return row && { type: 'User', id: row.id, isAdmin: row.is_admin === 1 };
  });
  const groups = await resolveActors(body.group, async (path) => {
    const row = await db.selectFrom('groups').select('id').where('full_path', '=', path).executeTakeFirst();
    return row && { type: 'Group', id: row.id };
  });
  const projects = await resolveActors(body.project, async (path) => {
    const row = await findProject(db, path);
    return row && { type: 'Project', id: row.id };
  });
  const featureGroups = (body.feature_group ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const group of featureGroups) {
    if (!FEATURE_GROUPS[group]) throw badRequest(`${group} is not found!`);
  }
  return { actors: [...users, ...groups, ...projects].map(flipperId), groups: featureGroups };
}

/** Sets one gate (or the actor gates) of a feature, creating the feature when it is new. */
export async function setFeatureGate(
  context: ServerContext,
  caller: Caller,
  name: string,
  body: SetFeatureGateBody,
): Promise<Feature> {
  requireAdmin(caller, 'api');
  if (!FEATURE_NAME.test(name))
    throw badRequest('Feature name can contain only letters, digits and underscores');
  const value = parseGateValue(body.value);
  if (value === undefined) throw new ApiError(400, { error: 'value is invalid' });
  const targets = await gateTargets(context.db, body);
  const hasTargets = targets.actors.length > 0 || targets.groups.length > 0;
  if (typeof value === 'number' && hasTargets) {
    throw badRequest(
      'A percentage applies to everyone: it cannot be combined with feature_group, user, group or project',
    );
  }
  const key = body.key ?? 'percentage_of_time';
  const now = nowIso();

  await context.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('features')
      .values({ name, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('name').doUpdateSet({ updated_at: now }))
      .execute();
    const gates = trx.deleteFrom('feature_gates').where('feature_name', '=', name);
    if (typeof value === 'number') {
      // The seeds' state table: an integer value, from any state, leaves the feature conditional on its
      // percentage gate, so a boolean gate set before goes (Flipper alone would keep it and answer `on`).
      const replaced = value > 0 ? [key, 'boolean'] : [key];
      await gates.where('key', 'in', replaced).execute();
      if (value > 0)
        await trx
          .insertInto('feature_gates')
          .values({ feature_name: name, key, value: String(value) })
          .execute();
    } else if (hasTargets) {
      const rows = [
        ...targets.actors.map((actor) => ({ feature_name: name, key: 'actors', value: actor })),
        ...targets.groups.map((group) => ({ feature_name: name, key: 'groups', value: group })),
      ];
      for (const row of rows) {
        if (value) {
          await trx
            .insertInto('feature_gates')
            .values(row)
            .onConflict((oc) => oc.doNothing())
            .execute();
        } else {
          await gates.where('key', '=', row.key).where('value', '=', row.value).execute();
        }
      }
    } else {
      // As Flipper does: switching the boolean gate on or off for everyone clears every other gate.
      await gates.execute();
      if (value)
        await trx
          .insertInto('feature_gates')
          .values({ feature_name: name, key: 'boolean', value: 'true' })
          .execute();
    }
  });
  return presentFeature(name, (await loadGates(context.db, [name])).get(name) ?? decodeGates([]));
}

/** Removes a feature and its gates; nothing to remove is not an error. */
export async function deleteFeature(context: ServerContext, caller: Caller, name: string): Promise<void> {
  requireAdmin(caller, 'api');
  await context.db.deleteFrom('features').where('name', '=', name).execute();
}
