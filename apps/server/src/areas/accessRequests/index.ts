// Access requests to groups and projects (document 2, section 4.10).
import type { Area } from '../../core/area.js';
import { accessRequestsHandlers } from './routes.js';

export const accessRequestsArea: Area = { name: 'accessRequests', handlers: accessRequestsHandlers };
