// Badges of projects and groups (document 2, section 4.9).
import type { Area } from '../../core/area.js';
import { badgesHandlers } from './routes.js';

export const badgesArea: Area = { name: 'badges', handlers: badgesHandlers };
