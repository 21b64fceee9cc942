// Project export and import (document 1, section 4.7).
import type { Area } from '../../core/area.js';
import { registerProjectExportImportJobs } from './jobs.js';
import { projectExportImportHandlers } from './routes.js';

export const projectImportExportArea: Area = {
  name: 'projectImportExport',
  handlers: projectExportImportHandlers,
  registerJobs: registerProjectExportImportJobs,
};
