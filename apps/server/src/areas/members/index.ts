// Members of groups and projects, direct and inherited: read, and the direct ones added, changed and removed
// (GitLab v4's members API; the seeds do not show it).
import type { Area } from '../../core/area.js';
import { membersFixtures } from './fixtures.js';
import { membersHandlers } from './routes.js';

export const membersArea: Area = { name: 'members', handlers: membersHandlers, fixtures: membersFixtures };
