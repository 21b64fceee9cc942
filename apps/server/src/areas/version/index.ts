// The instance's version and metadata (GitLab v4's GET /version and GET /metadata; the seeds do not show them).
import type { Area } from '../../core/area.js';
import { versionHandlers } from './routes.js';

export const versionArea: Area = { name: 'version', handlers: versionHandlers };
