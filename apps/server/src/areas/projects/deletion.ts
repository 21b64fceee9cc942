// Removing a project for good (GitLab's Projects::DestroyService): every row that refers to it, its queued
// jobs, then its files. The rows go in one transaction; the files (repository, uploads, export and import
// archives) only after it committed, so a failed deletion leaves the project whole.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { ServerContext } from '../../core/context.js';
import type { Db } from '../../core/store/database.js';

/** The job that removes a project marked for deletion once the instance's delay ran out (higher tiers). */
export const PROJECT_DELETION_JOB = 'project_deletion';

export interface ProjectDeletionPayload {
  projectId: number;
  /** The mark this job was scheduled for: a project restored (and perhaps marked again) meanwhile stays. */
  markedAt: string;
}

/** Runs the delayed deletion: only if the project still carries the mark the job was scheduled for. */
export async function runProjectDeletion(
  context: ServerContext,
  payload: ProjectDeletionPayload,
): Promise<void> {
  const project = await context.db
    .selectFrom('projects')
    .select(['id', 'marked_for_deletion_at'])
    .where('id', '=', payload.projectId)
    .executeTakeFirst();
  if (!project || project.marked_for_deletion_at !== payload.markedAt) return;
  await purgeProject(context, project.id);
}

/** Registers the delayed deletion's job handler (the projects area's background work). */
export function registerProjectDeletionJob(context: ServerContext): void {
  context.jobs.register(PROJECT_DELETION_JOB, (payload) =>
    runProjectDeletion(context, deletionPayload(payload)),
  );
}

function deletionPayload(payload: unknown): ProjectDeletionPayload {
  const { projectId, markedAt } = (payload ?? {}) as Partial<ProjectDeletionPayload>;
  if (typeof projectId !== 'number' || typeof markedAt !== 'string')
    throw new Error(`invalid ${PROJECT_DELETION_JOB} payload`);
  return { projectId, markedAt };
}

/**
 * The tables that hold rows of a project, read from the schema: a `project_id` column, or a polymorphic pair
 * (`source_type`/`source_id` of members and access requests, `subject_type`/`subject_id` of custom
 * attributes) naming a `Project`. Read from the schema rather than listed, so the tables later migrations add
 * (hooks, stars …) are purged too: foreign-key cascades cover most of them, never the polymorphic ones.
 */
async function tablesReferringToProjects(
  db: Db,
): Promise<{ byColumn: string[]; polymorphic: [string, string, string][] }> {
  const byColumn: string[] = [];
  const polymorphic: [string, string, string][] = [];
  for (const table of await db.introspection.getTables()) {
    const columns = new Set(table.columns.map((column) => column.name));
    if (columns.has('project_id')) byColumn.push(table.name);
    for (const [type, id] of [
      ['source_type', 'source_id'],
      ['subject_type', 'subject_id'],
    ] as const) {
      if (columns.has(type) && columns.has(id)) polymorphic.push([table.name, type, id]);
    }
  }
  return { byColumn, polymorphic };
}

/** Which payload field of a queued job names which of the project's objects. */
const JOB_PAYLOAD_OWNERS = {
  pipelineId: 'pipelines',
  mirrorId: 'remote_mirrors',
  moveId: 'project_repository_storage_moves',
} as const;

/** Removes the project, its rows in every table, its queued jobs, then its repository and files. */
export async function purgeProject(context: ServerContext, projectId: number): Promise<void> {
  const { db } = context;
  const tables = await tablesReferringToProjects(db);
  const project = await db.selectFrom('projects').select('id').where('id', '=', projectId).executeTakeFirst();
  if (!project) return;

  const importArchives = await db.transaction().execute(async (trx) => {
    // Jobs name their objects in their payloads: the project itself, or one of its pipelines, mirrors or
    // storage moves. Those still queued would only find nothing to do.
    const owned = new Map<string, Set<number>>([['projectId', new Set([projectId])]]);
    for (const [field, table] of Object.entries(JOB_PAYLOAD_OWNERS)) {
      const rows = await trx.selectFrom(table).select('id').where('project_id', '=', projectId).execute();
      owned.set(field, new Set(rows.map((row) => row.id)));
    }
    const queued = await trx
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('state', '=', 'queued')
      .execute();
    const jobIds = queued
      .filter((job) => {
        const payload = JSON.parse(job.payload) as Record<string, unknown>;
        return [...owned].some(
          ([field, ids]) => typeof payload[field] === 'number' && ids.has(payload[field]),
        );
      })
      .map((job) => job.id);
    if (jobIds.length > 0) await trx.deleteFrom('jobs').where('id', 'in', jobIds).execute();

    const archives = await trx
      .selectFrom('project_imports')
      .select('archive_path')
      .where('project_id', '=', projectId)
      .execute();
    // Table and column names from the schema (tablesReferringToProjects), never from the request.
    for (const table of tables.byColumn) {
      await sql`delete from ${sql.table(table)} where project_id = ${projectId}`.execute(trx);
    }
    for (const [table, typeColumn, idColumn] of tables.polymorphic) {
      await sql`delete from ${sql.table(table)}
        where ${sql.ref(typeColumn)} = 'Project' and ${sql.ref(idColumn)} = ${projectId}`.execute(trx);
    }
    await trx.deleteFrom('projects').where('id', '=', projectId).execute();
    return archives.flatMap((row) => (row.archive_path ? [row.archive_path] : []));
  });

  // After the commit: the files of a project that no longer exists.
  const paths = [
    ...context.storages.names.map((storage) => context.storages.pathFor(storage, projectId)),
    uploadsDirectory(context, projectId),
    join(context.dataDir, 'exports', String(projectId)),
    ...importArchives.map((archive) => join(context.dataDir, archive)),
  ];
  await Promise.all(paths.map((path) => rm(path, { recursive: true, force: true })));
}

/** Where the files uploaded to a project live: `uploads/<project id>/<secret>/<filename>`. */
export function uploadsDirectory(context: ServerContext, projectId: number): string {
  return join(context.dataDir, 'uploads', String(projectId));
}
