// SCIM provisioning (document 2, section 4.15): served under /api/scim/v2 by its own validated chain in
// app.ts (its own base path, bearer token and error shape), not with the /api/v4 areas.
import type { Area } from '../../core/area.js';
import { scimFixtures } from './fixtures.js';
import { scimRouter } from './routes.js';

export const SCIM_BASE_PATH = '/api/scim/v2';
export const scimArea: Area = { name: 'scim', router: scimRouter, fixtures: scimFixtures };
export { scimErrorHandler, scimNotFoundHandler } from './errors.js';
