// Project merge requests (GitLab v4): list, read, create, update and merge them.
import type { Area } from '../../core/area.js';
import { registerAutoMerge } from './autoMerge.js';
import { mergeRequestsFixtures } from './fixtures.js';
import { queueLockSweep, registerLockSweep } from './locks.js';
import { registerMergeRequestRefresh } from './refresh.js';
import { mergeRequestsHandlers } from './routes.js';
// Registers merge requests as to-do targets (the to-do list presents them); writes make their to-dos there.
import './todo.js';

export const mergeRequestsArea: Area = {
  name: 'mergeRequests',
  handlers: mergeRequestsHandlers,
  // The refresh runs in the request that moved a branch; automatic merges run as jobs.
  registerJobs: (context) => {
    registerMergeRequestRefresh(context);
    registerAutoMerge(context);
    registerLockSweep(context);
  },
  // Merge requests a killed process left `locked` are released at start, not only when next read.
  atStart: queueLockSweep,
  fixtures: mergeRequestsFixtures,
};
export {
  type AutoMergeChange,
  type MergeRequestAction,
  type MergeRequestChange,
  onMergeRequestEvent,
  onMergeRequestWrite,
  type PushedCommit,
  type PushedCommits,
} from './events.js';
export { type MergeRequest, presentMergeRequestsById } from './present.js';
export { findReadableMergeRequest } from './service.js';
export { handOverMergeRequests, type MergeRequestRow } from './store.js';
