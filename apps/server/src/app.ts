// Builds the Express application: docs, then the validated API under /api/v4, then the error handler.
import express, { type Express } from 'express';
import { branchesArea } from './areas/branches/index.js';
import { deployKeysArea } from './areas/deployKeys/index.js';
import { featuresArea } from './areas/features/index.js';
import { pipelinesArea } from './areas/pipelines/index.js';
import { projectImportExportArea } from './areas/projectImportExport/index.js';
import { protectedBranchesArea } from './areas/protectedBranches/index.js';
import { remoteMirrorsArea } from './areas/remoteMirrors/index.js';
import { repositoryFilesArea } from './areas/repositoryFiles/index.js';
import { storageMovesArea } from './areas/storageMoves/index.js';
import type { Area } from './core/area.js';
import type { ServerContext } from './core/context.js';
import { type DataDirectoryOptions, openDataDirectory } from './core/dataDirectory.js';
import { authenticate } from './core/http/auth.js';
import { docsRouter } from './core/http/docs.js';
import { errorHandler } from './core/http/errors.js';
import {
  apiDocumentFor,
  hasOwnServers,
  headAsGet,
  loadBundledSpec,
  openApiValidator,
} from './core/http/openapi.js';

/** Every area of the API, one folder each under `src/areas/`. */
export const AREAS: readonly Area[] = [
  repositoryFilesArea,
  branchesArea,
  protectedBranchesArea,
  pipelinesArea,
  deployKeysArea,
  remoteMirrorsArea,
  projectImportExportArea,
  storageMovesArea,
  featuresArea,
];

export interface AppOptions extends DataDirectoryOptions {
  /** Validate every response against the spec (development and tests). */
  validateResponses?: boolean;
  /** Real seconds per declared second of a pipeline job (default 1); tests pass a small value. */
  pipelineTimeScale?: number;
  /**
   * Run the background jobs in this process (default true). With several server processes on one data
   * directory exactly one runs them; the others only queue work.
   */
  runJobs?: boolean;
}

export interface CollabApp {
  app: Express;
  context: ServerContext;
  close(): Promise<void>;
}

export async function createApp(options: AppOptions): Promise<CollabApp> {
  const context = await openDataDirectory(options);
  const { db, jobs } = context;
  const areaOptions = { pipelineTimeScale: options.pipelineTimeScale ?? 1 };
  for (const area of AREAS) area.registerJobs?.(context, areaOptions);
  if (options.runJobs ?? true) await jobs.start();

  const app = express();
  app.disable('x-powered-by');
  // `custom_attributes[key]=value` and `upload[url]` need bracket parsing (Express 5 defaults to "simple").
  app.set('query parser', 'extended');
  app.use(express.json({ limit: '50mb', type: ['application/json', 'application/scim+json'] }));
  app.use(express.urlencoded({ extended: true, limit: '50mb' }));
  app.use(docsRouter());

  const spec = loadBundledSpec();
  // The validator is mounted on the app itself: it matches the full URL against the base path /api/v4.
  app.use('/api/v4', authenticate(db));
  const validators = openApiValidator({
    apiSpec: apiDocumentFor(spec, '/api/v4', (path, item) => !hasOwnServers(path, item)),
    validateResponses: options.validateResponses ?? false,
  });
  for (const validate of validators) app.use(headAsGet(validate));
  for (const area of AREAS) app.use('/api/v4', area.router(context));

  app.use((_req, res) => {
    res.status(404).json({ message: '404 Not Found' });
  });
  app.use(errorHandler);

  return {
    app,
    context,
    close: async () => {
      await jobs.stop();
      await db.destroy();
    },
  };
}
