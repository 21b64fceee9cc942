// Project merge requests (GitLab v4): list and read the merge requests the fixtures make.
import type { Area } from '../../core/area.js';
import { mergeRequestsHandlers } from './routes.js';

export const mergeRequestsArea: Area = { name: 'mergeRequests', handlers: mergeRequestsHandlers };
export { type MergeRequest, presentMergeRequestsById } from './present.js';
export { findReadableMergeRequest } from './service.js';
export type { MergeRequestRow } from './store.js';
