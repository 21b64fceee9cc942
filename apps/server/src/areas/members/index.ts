// Members of groups and projects, direct and inherited, read only (GitLab v4's members API; the seeds do
// not show it).
import type { Area } from '../../core/area.js';
import { membersFixtures } from './fixtures.js';
import { membersRouter } from './routes.js';

export const membersArea: Area = { name: 'members', router: membersRouter, fixtures: membersFixtures };
