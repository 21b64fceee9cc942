// Project issues (GitLab v4): list, read, create and update. What issues share with merge requests
// (labels, attached users, filters, the embedded user) is exported for the mergeRequests area.
import type { Area } from '../../core/area.js';
import { issuesHandlers } from './routes.js';

export const issuesArea: Area = { name: 'issues', handlers: issuesHandlers };
export { type IssueStateChange, type IssueStateListener, onIssueStateChange } from './events.js';
export {
  type IssuableUser,
  type LabelFilter,
  labelCondition,
  labelFilter,
  labelsOf,
  NO_TIME_STATS,
  presentAcrossProjects,
  presentUser,
  searchCondition,
  taskCompletion,
  usersById,
  usersOf,
} from './issuables.js';
export { type Issue, presentIssuesById } from './present.js';
export { iidsQuery, integerQuery, orderQuery } from './routes.js';
export { findReadableIssue } from './service.js';
export { type IssueRow, nextInternalId } from './store.js';
