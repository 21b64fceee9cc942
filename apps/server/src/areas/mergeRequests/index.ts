// Project merge requests (GitLab v4): list and read the merge requests the fixtures make.
import type { Area } from '../../core/area.js';
import { mergeRequestsFixtures } from './fixtures.js';
import { mergeRequestsRouter } from './routes.js';
// Registers merge requests as to-do targets (the to-do list presents them).
import './todo.js';

export const mergeRequestsArea: Area = {
  name: 'mergeRequests',
  router: mergeRequestsRouter,
  fixtures: mergeRequestsFixtures,
};
export { type MergeRequest, presentMergeRequestsById } from './present.js';
export { findReadableMergeRequest } from './service.js';
export type { MergeRequestRow } from './store.js';
