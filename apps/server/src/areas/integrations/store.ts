// The integrations area's queries: one row per project and slug (migration 025).
import type { Selectable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { IntegrationsTable } from '../../core/store/tables.js';
import { type EventFlag, SLUGS } from './catalog.js';

export type IntegrationRow = Selectable<IntegrationsTable>;

/** What a PUT writes: the whole settings object and every event flag (0 or 1). */
export type IntegrationWrite = { properties: string } & Record<EventFlag, number>;

/** One page of the project's active integrations, oldest first. */
export function listActiveIntegrations(
  db: Db,
  projectId: number,
  window: PageWindow,
): Promise<Page<IntegrationRow>> {
  // Only the slugs this server knows (a fixtures file may name others).
  const filtered = db
    .selectFrom('integrations')
    .where('project_id', '=', projectId)
    .where('active', '=', 1)
    .where('slug', 'in', SLUGS);
  return readPageOf(db, filtered, (query) => query.selectAll().orderBy('id'), window);
}

export function findIntegration(
  db: Db,
  projectId: number,
  slug: string,
): Promise<IntegrationRow | undefined> {
  return db
    .selectFrom('integrations')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

export function findIntegrationById(db: Db, id: number): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Creates the project's integration of `slug` or replaces its settings, and activates it, in one statement
 * (two PUTs at once leave one of them, never a failed insert).
 */
export async function upsertIntegration(
  db: Db,
  projectId: number,
  slug: string,
  write: IntegrationWrite,
  now: string,
): Promise<IntegrationRow> {
  return db
    .insertInto('integrations')
    .values({ project_id: projectId, slug, active: 1, ...write, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['project_id', 'slug']).doUpdateSet({ active: 1, ...write, updated_at: now }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Switches the integration off and keeps its settings (nothing happens when it was never set up). */
export async function disableIntegration(
  db: Db,
  projectId: number,
  slug: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('integrations')
    .set({ active: 0, updated_at: now })
    .where('project_id', '=', projectId)
    .where('slug', '=', slug)
    .execute();
}

/** The project's active integrations with one of the flags on (an event then picks those it concerns). */
export function activeIntegrationsWithAnyFlag(
  db: Db,
  projectId: number,
  flags: readonly EventFlag[],
): Promise<IntegrationRow[]> {
  return db
    .selectFrom('integrations')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('active', '=', 1)
    .where((eb) => eb.or(flags.map((flag) => eb(flag, '=', 1))))
    .orderBy('id')
    .execute();
}

/** The project of a pipeline (an event's first, cheap question), undefined when the pipeline is gone. */
export async function pipelineProjectId(db: Db, pipelineId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('pipelines')
    .select('project_id')
    .where('id', '=', pipelineId)
    .executeTakeFirst();
  return row?.project_id;
}
