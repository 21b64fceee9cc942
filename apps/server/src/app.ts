// Builds the Express application: docs, then the validated API under /api/v4, then the error handler.
import { mkdir } from 'node:fs/promises';
import express, { type Express } from 'express';
import type { ServerContext } from './context.js';
import { RepositoryStorages } from './git/storages.js';
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
import { JobQueue } from './jobs/queue.js';
import { registerRemoteMirrorJobs } from './jobs/remoteMirrors.js';
import { registerStorageMoveJobs } from './jobs/storageMoves.js';
import { RepositoryEvents } from './services/repositoryEvents.js';
import { openDatabase } from './store/database.js';
import { type Fixtures, loadFixturesIfEmpty } from './store/fixtures.js';

export interface AppOptions {
  /** Directory of the SQLite file and the repositories; created when missing. */
  dataDir: string;
  /** Objects the API cannot create (users, tokens, groups, projects …), loaded into an empty database. */
  fixtures?: Fixtures;
  /** Validate every response against the spec (development and tests). */
  validateResponses?: boolean;
  /** Names of the repository storages; the first is where new repositories go. */
  storageNames?: string[];
  /** How often the job queue polls when idle (default 100 ms). */
  jobPollIntervalMs?: number;
  /** Real seconds per declared second of a pipeline job (default 1); tests pass a small value. */
  pipelineTimeScale?: number;
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
  await mkdir(options.dataDir, { recursive: true });
  const db = await openDatabase(options.dataDir);
  const storages = new RepositoryStorages(options.dataDir, options.storageNames ?? ['default']);
  await storages.ensureDirectories();
  const jobs = new JobQueue(db, { pollIntervalMs: options.jobPollIntervalMs });
  const context: ServerContext = {
    db,
    dataDir: options.dataDir,
    storages,
    jobs,
    repositoryEvents: new RepositoryEvents(),
  };
  if (options.fixtures) await loadFixturesIfEmpty(context, options.fixtures);
  registerJobHandlers(context, options);
  await jobs.start();

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
