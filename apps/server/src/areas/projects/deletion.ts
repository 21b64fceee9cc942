// Removing a project for good (GitLab's Projects::DestroyService): every row that refers to it, its queued
// jobs, then its files. The rows go in one transaction; the files (repository, uploads, export and import
// archives) only after it committed, so a failed deletion leaves the project whole.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerContext } from '../../core/context.js';
import { avatarDirectory } from '../avatars/index.js';
import { deleteProjectRows, findProjectById } from './store.js';

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
  const project = await findProjectById(context.db, payload.projectId);
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

/** Removes the project, its rows in every table, its queued jobs, then its repository and files. */
export async function purgeProject(context: ServerContext, projectId: number): Promise<void> {
  const { db } = context;
  const importArchives = await deleteProjectRows(db, projectId);
  if (!importArchives) return;

  // After the commit: the files of a project that no longer exists.
  const paths = [
    ...context.storages.names.map((storage) => context.storages.pathFor(storage, projectId)),
    uploadsDirectory(context, projectId),
    avatarDirectory(context.dataDir, 'project', projectId),
    join(context.dataDir, 'exports', String(projectId)),
    ...importArchives.map((archive) => join(context.dataDir, archive)),
  ];
  await Promise.all(paths.map((path) => rm(path, { recursive: true, force: true })));
}

/** Where the files uploaded to a project live: `uploads/<project id>/<secret>/<filename>`. */
export function uploadsDirectory(context: ServerContext, projectId: number): string {
  return join(context.dataDir, 'uploads', String(projectId));
}
