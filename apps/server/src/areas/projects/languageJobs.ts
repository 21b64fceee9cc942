// Languages are detected when they are read (service.ts detectLanguages, detectStaleLanguages), not after
// each push: a commit costs what the commit costs, and a burst of commits is detected once, by the next
// reader. Earlier versions queued a detection per push: one such job still waiting in a data directory's
// queue is run, so it does not fail.
import type { ServerContext } from '../../core/context.js';
import { detectLanguages } from './service.js';

const JOB = 'projects.detectLanguages';

export function registerLanguageDetection(context: ServerContext): void {
  context.jobs.register(JOB, async (payload) => {
    const { projectId } = payload as { projectId: number };
    const project = await context.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', projectId)
      .executeTakeFirst();
    // Gone meanwhile, or detected already at this generation (detectLanguages reads the stored ones then).
    if (project) await detectLanguages(context, project);
  });
}
