// Projects (document 2, section 4.2): the project lists, a user's projects, starrers and languages; creating,
// reading and editing one project (entry.ts, GitLab v4) with its stored settings (settings.ts).
//
// For other areas (the groups area's `GET /groups/:id/projects` and `/groups/:id/projects/shared`, the
// project actions that answer with a project):
// - `respondWithProjectList(context, caller, scope, req, res)`: answers a project-list request for a scope
//   (`{ kind: 'all' }`, `{ kind: 'userNamespace', userId }`, `{ kind: 'group', groupId, includeSubgroups,
//   withShared }`, `{ kind: 'sharedWithGroup', groupId }`): reads every list parameter of the query (archived,
//   visibility, order_by, sort, search, simple, owned, starred, with_issues_enabled, min_access_level,
//   with_custom_attributes, pagination …), filters in SQL by what the caller may see, reads one page and sends
//   it in the caller's form with the pagination headers. The caller must already have resolved the group.
// - `listProjectsOfScope(context, caller, scope, request, origin)` + `projectListRequestOf(req)` +
//   `sendProjectListPage(req, res, page)`: the same in three steps (to adjust the request in between).
// - `presentFullProjects(context, caller, rows, options)` / `presentFullProject(context, caller, row, origin)`:
//   the spec's ProjectFull (`options.sharedProjectFields` adds the shared-projects list's fields); a project
//   shows its own namespace, so a project shared into a group is told apart by it.
// - `presentProjectSummaries(context, rows, options)`: the spec's ProjectSummary.
import type { Area } from '../../core/area.js';
import { projectActionHandlers } from './actionRoutes.js';
import { registerProjectDeletionJob } from './deletion.js';
import { projectsFixtures } from './fixtures.js';
import { registerLanguageDetection } from './languageJobs.js';
import { projectsHandlers } from './routes.js';

// The project actions (archive, delete, restore, uploads, shares: actionRoutes.ts) have their own handlers;
// the uploaded files are served outside the API (projectUploadsRouter, mounted by app.ts).
export { projectUploadsRouter } from './actionRoutes.js';
// Removing a project for good (rows, repository, files): the groups area removes a deleted group's projects.
export { purgeProject } from './deletion.js';
export type { PresentOptions, ProjectFull, ProjectSummary } from './present.js';
export { presentFullProject, presentFullProjects, presentProjectSummaries } from './present.js';
export { projectListRequestOf, respondWithProjectList, sendProjectListPage } from './routes.js';
export type { ProjectListPage, ProjectListRequest } from './service.js';
export { listProjectsOfScope } from './service.js';
export type { ProjectFilters, ProjectListScope, ProjectOrder } from './store.js';
// A user's deletion hands the projects the user created over (users area, in its transaction).
export { handOverCreatedProjects } from './store.js';

export const projectsArea: Area = {
  name: 'projects',
  fixtures: projectsFixtures,
  handlers: (context) => ({ ...projectsHandlers(context), ...projectActionHandlers(context) }),
  registerJobs: (context) => {
    registerProjectDeletionJob(context);
    registerLanguageDetection(context);
  },
};
