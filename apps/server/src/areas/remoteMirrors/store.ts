// The remote mirrors area's queries: the mirrors (table remote_mirrors), their projects, and whether a push
// of a mirror already waits in the job queue.
import type { Updateable } from 'kysely';
import type { Db } from '../../core/store/database.js';
import { nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { RemoteMirrorsTable } from '../../core/store/tables.js';

export type RemoteMirrorRow = Omit<RemoteMirrorsTable, 'id'> & { id: number };

/** Whether a job of this kind and payload is queued and not yet started. */
export async function hasQueuedJob(db: Db, kind: string, payload: string): Promise<boolean> {
  const waiting = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', kind)
    .where('state', '=', 'queued')
    .where('payload', '=', payload)
    .executeTakeFirst();
  return waiting !== undefined;
}

/** The IDs of the project's enabled mirrors. */
export async function enabledMirrorIds(db: Db, projectId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('remote_mirrors')
    .select('id')
    .where('project_id', '=', projectId)
    .where('enabled', '=', 1)
    .execute();
  return rows.map((row) => row.id);
}

/** One page of the project's mirrors, oldest first. */
export function pageOfMirrors(db: Db, projectId: number, window: PageWindow): Promise<Page<RemoteMirrorRow>> {
  return readPageOf(
    db,
    db.selectFrom('remote_mirrors').where('project_id', '=', projectId),
    (query) => query.selectAll().orderBy('id'),
    window,
  );
}

export function insertMirror(
  db: Db,
  mirror: {
    projectId: number;
    url: string;
    enabled: boolean;
    onlyProtectedBranches: boolean;
    keepDivergentRefs: boolean;
  },
): Promise<RemoteMirrorRow> {
  return db
    .insertInto('remote_mirrors')
    .values({
      project_id: mirror.projectId,
      url: mirror.url,
      enabled: mirror.enabled ? 1 : 0,
      only_protected_branches: mirror.onlyProtectedBranches ? 1 : 0,
      keep_divergent_refs: mirror.keepDivergentRefs ? 1 : 0,
      update_status: 'none',
      last_error: null,
      last_update_at: null,
      last_update_started_at: null,
      last_successful_update_at: null,
      created_at: nowIso(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The project's mirror, or undefined. */
export function findProjectMirror(
  db: Db,
  projectId: number,
  id: number,
): Promise<RemoteMirrorRow | undefined> {
  return db
    .selectFrom('remote_mirrors')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

/** Changes the project's mirror; undefined when it has no such mirror. */
export function updateProjectMirror(
  db: Db,
  projectId: number,
  id: number,
  changes: Updateable<RemoteMirrorsTable>,
): Promise<RemoteMirrorRow | undefined> {
  return db
    .updateTable('remote_mirrors')
    .set(changes)
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .returningAll()
    .executeTakeFirst();
}

/** A mirror by ID (the push job), or undefined. */
export function findMirror(db: Db, id: number): Promise<RemoteMirrorRow | undefined> {
  return db.selectFrom('remote_mirrors').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Records a push's progress or outcome on the mirror. */
export async function setMirrorStatus(
  db: Db,
  id: number,
  status: Updateable<RemoteMirrorsTable>,
): Promise<void> {
  await db.updateTable('remote_mirrors').set(status).where('id', '=', id).execute();
}

/** The mirror's project (the push job), or undefined when it was deleted. */
export function findMirrorProject(db: Db, projectId: number) {
  return db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
}
