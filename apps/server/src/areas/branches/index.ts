// Branches (document 1, section 4.2).
import type { Area } from '../../core/area.js';
import { branchesRouter } from './routes.js';

export const branchesArea: Area = { name: 'branches', router: branchesRouter };
