// Languages are detected again after a change of the repository (GitLab's DetectRepositoryLanguagesWorker
// after a push), so that `with_programming_language` finds a project whose languages nobody has read yet.
// Projects whose repository has not changed since the start are detected when their languages are read.
import type { ServerContext } from '../../core/context.js';
import { detectLanguages } from './service.js';
import { findProjectById } from './store.js';

const JOB = 'projects.detectLanguages';

export function registerLanguageDetection(context: ServerContext): void {
  context.jobs.register(JOB, async (payload) => {
    const { projectId } = payload as { projectId: number };
    const project = await findProjectById(context.db, projectId);
    // Gone meanwhile, or detected already at this generation (detectLanguages reads the stored ones then).
    if (project) await detectLanguages(context, project);
  });
  // One waiting detection covers every push before it runs: a burst of commits detects once, not per commit.
  context.repositoryEvents.onChange(async (projectId) => {
    await context.jobs.enqueueUnlessWaiting(JOB, { projectId });
  });
}
