// Users (GitLab v4's users API; the seeds do not show it): the current user, the user list, single users.
import type { Area } from '../../core/area.js';
import { usersFixtures } from './fixtures.js';
import { usersRouter } from './routes.js';

export const usersArea: Area = { name: 'users', router: usersRouter, fixtures: usersFixtures };
