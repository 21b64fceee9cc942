// Members of groups and projects, direct and inherited: read, and the direct ones added, changed and removed
// (GitLab v4's members API; the seeds do not show it); expired memberships removed when they expire. An
// approved access request becomes a membership through addMemberIn, the one rule for adding a member.
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
export { addMemberIn, type NewMember, type Source as MemberSource } from './store.js';
