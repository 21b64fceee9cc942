// The background push of a remote mirror: every repository change queues one per enabled mirror, and the
// job pushes the project's branches for real, recording started → finished or failed on the mirror.

import type { ProjectRow } from '../../core/access/access.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { maskCredentials } from '../../core/git/repository.js';
import { nowIso } from '../../core/store/database.js';
import { loadProtectionRules, matchingRules } from '../protectedBranches/index.js';
import { divergedRefsMessage, readPushRejections } from './mirrorUrl.js';
import { MIRROR_UPDATE_JOB, mirrorUrlProblem, scheduleProjectMirrorUpdates } from './service.js';
import { findMirror, findMirrorProject, setMirrorStatus } from './store.js';

type PushOutcome = { ok: true } | { ok: false; error: string };

/**
 * Brings one mirror up to date. Idempotent: a push interrupted by a restart is simply pushed again.
 * A mirror disabled (or deleted with its project) since the job was queued is left alone.
 */
export async function updateMirror(context: ServerContext, mirrorId: number): Promise<void> {
  const { db } = context;
  const mirror = await findMirror(db, mirrorId);
  if (mirror?.enabled !== 1) return;
  const project = await findMirrorProject(db, mirror.project_id);
  if (!project) return;

  await setMirrorStatus(db, mirror.id, { update_status: 'started', last_update_started_at: nowIso() });

  let outcome: PushOutcome;
  try {
    outcome = await push(context, mirror, project);
  } catch (error) {
    outcome = { ok: false, error: String(error instanceof Error ? error.message : error) };
  }

  const finishedAt = nowIso();
  await setMirrorStatus(
    db,
    mirror.id,
    outcome.ok
      ? {
          update_status: 'finished',
          last_error: null,
          last_update_at: finishedAt,
          last_successful_update_at: finishedAt,
        }
      : {
          update_status: 'failed',
          last_error: maskCredentials(outcome.error, mirror.url),
          last_update_at: finishedAt,
        },
  );
}

async function push(
  context: ServerContext,
  mirror: { url: string; only_protected_branches: number; keep_divergent_refs: number },
  project: Pick<ProjectRow, 'id' | 'repository_storage' | 'repository_generation'>,
): Promise<PushOutcome> {
  // Checked again at push time: the data directory or a symlink on the way may have changed since.
  const problem = await mirrorUrlProblem(context, mirror.url);
  if (problem) return { ok: false, error: `url ${problem}` };

  const repository = repositoryOf(context, project);
  // only_protected_branches limits the branches the mirror gets and manages; tags are always mirrored.
  const rules =
    mirror.only_protected_branches === 1 ? await loadProtectionRules(context.db, project.id) : undefined;
  const coversBranch = (name: string): boolean =>
    rules === undefined || matchingRules(rules, name).length > 0;
  const branches = (await repository.listBranches()).map((branch) => branch.name).filter(coversBranch);

  const keepDivergent = mirror.keep_divergent_refs === 1;
  const result = await repository.pushMirror(mirror.url, { branches, force: !keepDivergent, coversBranch });
  if (result.ok) return result;
  if (keepDivergent) {
    // A plain push still updates the other branches; the diverged ones are skipped, as asked, and the
    // update is reported as failed with their names (GitLab's behaviour).
    const { diverged, otherFailure } = readPushRejections(result.error);
    if (diverged.length > 0 && !otherFailure) return { ok: false, error: divergedRefsMessage(diverged) };
  }
  return result;
}

/** Registers the push job and subscribes to repository changes. Called once from registerJobHandlers. */
export function registerRemoteMirrorJobs(context: ServerContext): void {
  context.jobs.register(MIRROR_UPDATE_JOB, async (payload) => {
    const { mirrorId } = payload as { mirrorId: number };
    await updateMirror(context, mirrorId);
  });
  context.repositoryEvents.onChange((projectId) => scheduleProjectMirrorUpdates(context, projectId));
}
