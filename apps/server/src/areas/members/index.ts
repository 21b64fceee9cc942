// Members of groups and projects, direct and inherited: read, and the direct ones added, changed and removed
// (GitLab v4's members API; the seeds do not show it); expired memberships removed when they expire.
import type { Area } from '../../core/area.js';
import { membersFixtures } from './fixtures.js';
import { registerMemberJobs } from './jobs.js';
import { membersHandlers } from './routes.js';

export const membersArea: Area = {
  name: 'members',
  handlers: membersHandlers,
  fixtures: membersFixtures,
  registerJobs: (context) => registerMemberJobs(context),
};
