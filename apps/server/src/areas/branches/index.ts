// Branches (document 1, section 4.2).
import type { Area } from '../../core/area.js';
import { branchesHandlers } from './routes.js';

export const branchesArea: Area = { name: 'branches', handlers: branchesHandlers };
