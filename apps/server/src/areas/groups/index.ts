// Groups (document 2, section 4.1): lists, subgroups, details and the projects of a group.
import type { Area } from '../../core/area.js';
import { groupsFixtures } from './fixtures.js';
import { groupsRouter } from './routes.js';

export const groupsArea: Area = { name: 'groups', router: groupsRouter, fixtures: groupsFixtures };
