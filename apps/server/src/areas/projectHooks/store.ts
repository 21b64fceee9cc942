// The project hooks area's queries: the hooks, their deliveries, and the reads a payload is built from (the
// project, the user, the pipeline with its jobs and variables).
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type {
  PipelineJobsTable,
  PipelinesTable,
  ProjectHookDeliveriesTable,
  ProjectHooksTable,
} from '../../core/store/tables.js';
import type { HookFailureState } from './backoff.js';

export type HookRow = Selectable<ProjectHooksTable>;
export type DeliveryRow = Selectable<ProjectHookDeliveriesTable>;

/** One page of the project's hooks, oldest first. */
export function listHooks(db: Db, projectId: number, window: PageWindow): Promise<Page<HookRow>> {
  const filtered = db.selectFrom('project_hooks').where('project_id', '=', projectId);
  return readPageOf(db, filtered, (query) => query.selectAll().orderBy('id'), window);
}

export function findHook(db: Db, projectId: number, hookId: number): Promise<HookRow | undefined> {
  return db
    .selectFrom('project_hooks')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', hookId)
    .executeTakeFirst();
}

/** The project's hooks with one of the flags on (an event then picks those it concerns). */
export function hooksWithAnyFlag(
  db: Db,
  projectId: number,
  flags: readonly ('push_events' | 'tag_push_events' | 'pipeline_events' | 'merge_requests_events')[],
): Promise<HookRow[]> {
  return db
    .selectFrom('project_hooks')
    .selectAll()
    .where('project_id', '=', projectId)
    .where((eb) => eb.or(flags.map((flag) => eb(flag, '=', 1))))
    .orderBy('id')
    .execute();
}

/* Deliveries ------------------------------------------------------------------------------------- */

export async function insertDelivery(
  db: Db,
  delivery: { hookId: number; event: string; eventUuid: string; payload: string },
): Promise<number> {
  const now = nowIso();
  const { id } = await db
    .insertInto('project_hook_deliveries')
    .values({
      hook_id: delivery.hookId,
      event: delivery.event,
      event_uuid: delivery.eventUuid,
      payload: delivery.payload,
      state: 'pending',
      attempts: 0,
      response_status: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A delivery with what sending it needs of its hook; undefined when the delivery or hook is gone. */
export function findDeliveryToSend(
  db: Db,
  deliveryId: number,
): Promise<
  | (DeliveryRow &
      Pick<HookRow, 'url' | 'token' | 'enable_ssl_verification' | 'recent_failures' | 'disabled_until'> & {
        project_id: number;
      })
  | undefined
> {
  return db
    .selectFrom('project_hook_deliveries as d')
    .innerJoin('project_hooks as h', 'h.id', 'd.hook_id')
    .selectAll('d')
    .select([
      'h.url',
      'h.token',
      'h.enable_ssl_verification',
      'h.project_id',
      'h.recent_failures',
      'h.disabled_until',
    ])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

export async function recordAttempt(
  db: Db,
  deliveryId: number,
  outcome: {
    state: 'pending' | 'delivered' | 'failed';
    attempts: number;
    status: number | null;
    error: string | null;
  },
): Promise<void> {
  await db
    .updateTable('project_hook_deliveries')
    .set({
      state: outcome.state,
      attempts: outcome.attempts,
      response_status: outcome.status,
      last_error: outcome.error,
      updated_at: nowIso(),
    })
    .where('id', '=', deliveryId)
    .execute();
}

/** The hook's failure state as it is now (read in the transaction that records an attempt). */
export function findHookFailureState(db: Db, hookId: number): Promise<HookFailureState | undefined> {
  return db
    .selectFrom('project_hooks')
    .select(['recent_failures', 'disabled_until'])
    .where('id', '=', hookId)
    .executeTakeFirst();
}

export async function updateHookFailureState(db: Db, hookId: number, state: HookFailureState): Promise<void> {
  await db.updateTable('project_hooks').set(state).where('id', '=', hookId).execute();
}

/* What payloads are built from ------------------------------------------------------------------- */

export interface HookProject {
  id: number;
  name: string;
  path: string;
  description: string | null;
  default_branch: string;
  visibility: string;
  namespace_name: string;
  namespace_full_path: string;
  repository_storage: string;
  repository_generation: number;
  /** The avatar's file name, or null. */
  avatar: string | null;
  ci_config_path: string | null;
}

export function findHookProject(db: Db, projectId: number): Promise<HookProject | undefined> {
  return db
    .selectFrom('projects as p')
    .innerJoin('groups as g', 'g.id', 'p.namespace_id')
    .select([
      'p.id',
      'p.name',
      'p.path',
      'p.description',
      'p.default_branch',
      'p.visibility',
      'g.name as namespace_name',
      'g.full_path as namespace_full_path',
      'p.repository_storage',
      'p.repository_generation',
      'p.avatar',
      'p.ci_config_path',
    ])
    .where('p.id', '=', projectId)
    .executeTakeFirst();
}

export interface HookUser {
  id: number;
  name: string;
  username: string;
  avatar_url: string | null;
}

export function findHookUser(db: Db, userId: number): Promise<HookUser | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'username', 'avatar_url'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export type HookPipeline = Selectable<PipelinesTable>;
export type HookPipelineJob = Selectable<PipelineJobsTable>;

export async function findHookPipeline(
  db: Db,
  pipelineId: number,
): Promise<
  { pipeline: HookPipeline; jobs: HookPipelineJob[]; variables: { key: string; value: string }[] } | undefined
> {
  const pipeline = await db
    .selectFrom('pipelines')
    .selectAll()
    .where('id', '=', pipelineId)
    .executeTakeFirst();
  if (!pipeline) return undefined;
  const [jobs, variables] = await Promise.all([
    db
      .selectFrom('pipeline_jobs')
      .selectAll()
      .where('pipeline_id', '=', pipelineId)
      .orderBy('stage_index')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('pipeline_variables')
      .select(['key', 'value'])
      .where('pipeline_id', '=', pipelineId)
      .orderBy('key')
      .execute(),
  ]);
  return { pipeline, jobs, variables };
}

/** Adds a hook as given (fixtures). */
export async function insertHook(db: Db, hook: Insertable<ProjectHooksTable>): Promise<void> {
  await db.insertInto('project_hooks').values(hook).execute();
}
