// What blocking a user does to the user's pipelines (GitLab's User state machine runs
// Ci::DropPipelinesAndDisableSchedulesForUserService after a user is blocked): every active pipeline the user
// triggered is dropped, its jobs still alive failing with it.
import type { ServerContext } from '../../core/context.js';
import { pipelineStatusChanged } from './events.js';
import { dropPipeline } from './progress.js';
import { loadPipelineState, saveStep } from './runner.js';
import { activePipelineIdsOfUser } from './store.js';

/** Drops the active pipelines of a user who was just blocked, each in a transaction of its own. */
export async function dropPipelinesOfBlockedUser(context: ServerContext, userId: number): Promise<void> {
  for (const pipelineId of await activePipelineIdsOfUser(context.db, userId)) {
    const dropped = await context.db.transaction().execute(async (trx) => {
      const state = await loadPipelineState(trx, pipelineId);
      const now = new Date();
      const step = state && dropPipeline(state.pipeline, state.jobs, now);
      if (step) await saveStep(trx, pipelineId, step, now);
      return Boolean(step);
    });
    if (dropped) await pipelineStatusChanged(context, pipelineId);
  }
}
