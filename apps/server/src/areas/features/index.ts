// Feature flags (document 2): the Features API, the gates other areas ask, and the server's switches (the
// tier's licensed features and the feature flags behind behaviours: switches.ts).
import type { Area } from '../../core/area.js';
import { featuresHandlers } from './routes.js';

export const featuresArea: Area = { name: 'features', handlers: featuresHandlers };
export type { FeatureActor } from './gates.js';
export { isFeatureEnabled, userActor } from './service.js';
export * from './switches.js';
