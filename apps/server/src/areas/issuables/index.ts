// What issues and merge requests share (GitLab's "issuables"), in a module both import so that neither
// imports the other: the embedded user and the users of a page, label names and attached users, the list
// parameters and filters, and issuables of several projects presented together. Epics and to-dos use the
// embedded user and the list parameters too. Not an area: it has no routes.
export {
  iidsQuery,
  integerQuery,
  type LabelFilter,
  labelFilter,
  labelNames,
  labelsQuery,
  orderQuery,
} from './parameters.js';
export {
  NO_TIME_STATS,
  presentAcrossProjects,
  presentUser,
  taskCompletion,
  type UserBasic,
} from './present.js';
export {
  activeUsers,
  deleteWhatHangsOn,
  type HangingTarget,
  type IssuableRole,
  type IssuableType,
  type IssuableUser,
  labelCondition,
  labelsOf,
  replaceLabels,
  replaceUsers,
  searchCondition,
  userCondition,
  usersById,
  usersOf,
} from './store.js';
export { assignableUsers, requestedAssignees, updatedLabels } from './writes.js';
