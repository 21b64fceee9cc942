// Project issues (GitLab v4): list, read, create and update. What issues share with merge requests
// (labels, attached users, filters, the embedded user) lives in ../issuables/, which both import.
import type { Area } from '../../core/area.js';
import { issuesFixtures } from './fixtures.js';
import { issuesHandlers } from './routes.js';
// Registers issues as to-do targets (the to-do list presents them); issue writes make their to-dos there.
import './todos.js';

export const issuesArea: Area = { name: 'issues', handlers: issuesHandlers, fixtures: issuesFixtures };
export { type IssueStateChange, type IssueStateListener, onIssueStateChange } from './events.js';
export { type Issue, presentIssuesById } from './present.js';
export { findReadableIssue } from './service.js';
export { handOverIssues, type IssueRow, nextInternalId } from './store.js';
