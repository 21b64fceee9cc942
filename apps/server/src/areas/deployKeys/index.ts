// Deploy keys (document 1, section 4.5).
import type { Area } from '../../core/area.js';
import { deployKeysHandlers } from './routes.js';

export const deployKeysArea: Area = { name: 'deployKeys', handlers: deployKeysHandlers };
