// The background work of project export and import: one job kind each, whose payloads are checked here.
import type { ServerContext } from '../../core/context.js';
import { EXPORT_JOB, type ExportJobPayload, runProjectExport } from './exports.js';
import { IMPORT_JOB, type ImportJobPayload, runProjectImport } from './imports.js';

function exportPayload(payload: unknown): ExportJobPayload {
  const { projectId, generation, attempt } = (payload ?? {}) as Partial<ExportJobPayload>;
  if (typeof projectId !== 'number' || typeof generation !== 'number')
    throw new Error(`invalid ${EXPORT_JOB} payload`);
  return { projectId, generation, attempt: typeof attempt === 'number' ? attempt : 1 };
}

function importPayload(payload: unknown): ImportJobPayload {
  const { projectId, correlationId } = (payload ?? {}) as Partial<ImportJobPayload>;
  if (typeof projectId !== 'number' || typeof correlationId !== 'string')
    throw new Error(`invalid ${IMPORT_JOB} payload`);
  return { projectId, correlationId };
}

export function registerProjectExportImportJobs(context: ServerContext): void {
  context.jobs.register(EXPORT_JOB, (payload) => runProjectExport(context, exportPayload(payload)));
  context.jobs.register(IMPORT_JOB, (payload) => runProjectImport(context, importPayload(payload)));
}
