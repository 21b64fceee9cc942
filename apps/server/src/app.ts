// Builds the Express application: docs, then the validated API under /api/v4, then the error handler.
import express, { type Express } from 'express';
import type { ServerContext } from './context.js';
import { type DataDirectoryOptions, openDataDirectory } from './dataDirectory.js';
import { authenticate } from './http/auth.js';
import { docsRouter } from './http/docs.js';
import { errorHandler } from './http/errors.js';
import {
  apiDocumentFor,
  hasOwnServers,
  headAsGet,
  loadBundledSpec,
  openApiValidator,
  queryParametersAsBody,
} from './http/openapi.js';
import { branchesRouter } from './http/routes/branches.js';
import { deployKeysRouter } from './http/routes/deployKeys.js';
import { featuresRouter } from './http/routes/features.js';
import { pipelinesRouter } from './http/routes/pipelines.js';
import { projectExportImportRouter } from './http/routes/projectExportImport.js';
import { protectedBranchesRouter } from './http/routes/protectedBranches.js';
import { remoteMirrorsRouter } from './http/routes/remoteMirrors.js';
import { repositoryFilesRouter } from './http/routes/repositoryFiles.js';
import { storageMovesRouter } from './http/routes/storageMoves.js';
import { registerPipelineJobs } from './jobs/pipelines.js';
import { registerProjectExportImportJobs } from './jobs/projectExportImport.js';
import { registerRemoteMirrorJobs } from './jobs/remoteMirrors.js';
import { registerStorageMoveJobs } from './jobs/storageMoves.js';

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

/** Each area that runs background work registers its job handlers here. */
function registerJobHandlers(context: ServerContext, options: AppOptions): void {
  registerPipelineJobs(context, { timeScale: options.pipelineTimeScale ?? 1 });
  registerRemoteMirrorJobs(context);
  registerStorageMoveJobs(context);
  registerProjectExportImportJobs(context);
}

export async function createApp(options: AppOptions): Promise<CollabApp> {
  const context = await openDataDirectory(options);
  const { db, jobs } = context;
  registerJobHandlers(context, options);
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
  app.use('/api/v4', authenticate(db), queryParametersAsBody);
  const validators = openApiValidator({
    apiSpec: apiDocumentFor(spec, '/api/v4', (path, item) => !hasOwnServers(path, item)),
    validateResponses: options.validateResponses ?? false,
  });
  for (const validate of validators) app.use(headAsGet(validate));
  app.use('/api/v4', repositoryFilesRouter(context), branchesRouter(context));
  app.use('/api/v4', remoteMirrorsRouter(context), storageMovesRouter(context));
  app.use('/api/v4', protectedBranchesRouter(context), deployKeysRouter(context));
  app.use('/api/v4', projectExportImportRouter(context));
  app.use('/api/v4', pipelinesRouter(context), featuresRouter(context));

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
