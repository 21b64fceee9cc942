// Group labels (document 2, section 4.8): list (with counts), read, create, update, delete, subscribe and
// unsubscribe, and the deprecated PUT and DELETE by name.
import type { Area } from '../../core/area.js';
import { groupLabelsFixtures } from './fixtures.js';
import { groupLabelsRouter } from './routes.js';

export const groupLabelsArea: Area = {
  name: 'groupLabels',
  router: groupLabelsRouter,
  fixtures: groupLabelsFixtures,
};
