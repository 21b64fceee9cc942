// Feature flags (document 2): the Features API, and the gates other areas ask.
import type { Area } from '../../core/area.js';
import { featuresRouter } from './routes.js';

export const featuresArea: Area = { name: 'features', router: featuresRouter };
export type { FeatureActor } from './gates.js';
export { isFeatureEnabled, userActor } from './service.js';
