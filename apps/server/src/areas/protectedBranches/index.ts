// Protected branches (document 1, section 4.3). Its rules decide pushes, merges and deletions in other areas.
import type { Area } from '../../core/area.js';
import { protectedBranchesFixtures } from './fixtures.js';
import { protectedBranchesRouter } from './routes.js';

export const protectedBranchesArea: Area = {
  name: 'protectedBranches',
  router: protectedBranchesRouter,
  fixtures: protectedBranchesFixtures,
};
export {
  developersCan,
  isAllowed,
  isValidBranchPattern,
  loadProtectionRules,
  matchingRules,
  type ProtectionRule,
  ruleMatches,
} from './rules.js';
export { type NewAccessLevel, replaceProtectedBranches } from './store.js';
