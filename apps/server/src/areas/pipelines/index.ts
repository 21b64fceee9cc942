// Pipelines (document 1, section 4.4): declarative CI config, an in-process runner, variables and test reports.
import type { Area } from '../../core/area.js';
import { registerPipelineJobs } from './jobs.js';
import { pipelinesHandlers } from './routes.js';

export const pipelinesArea: Area = {
  name: 'pipelines',
  handlers: pipelinesHandlers,
  registerJobs: (context, options) => registerPipelineJobs(context, { timeScale: options.pipelineTimeScale }),
};
// Blocking a user drops the user's active pipelines (users area).
export { dropPipelinesOfBlockedUser } from './blocking.js';
export { onPipelineStatusChange, type PipelineStatusListener } from './events.js';
// What merge requests read of pipelines: the head pipeline of their source branch, presented as GitLab's
// Ci::Pipeline entity, and a pipeline's status when it changes.
export { type Pipeline, presentPipeline } from './service.js';
// A user's deletion hands the user's pipelines over (handOverPipelines: users area, in its transaction).
export {
  findHeadPipelineRecord,
  findPipelineStatus,
  handOverPipelines,
  type PipelineRecord,
} from './store.js';
