// Builds the Express application: the validated API under /api/v4, then the docs, then the error handler.

import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { accessRequestsArea } from './areas/accessRequests/index.js';
import { appearanceArea, appearanceImagesRouter } from './areas/appearance/index.js';
import { avatarsRouter } from './areas/avatars/index.js';
import { badgesArea } from './areas/badges/index.js';
import { branchesArea } from './areas/branches/index.js';
import { deployKeysArea } from './areas/deployKeys/index.js';
import { epicsArea } from './areas/epics/index.js';
import { featuresArea } from './areas/features/index.js';
import { groupLabelsArea } from './areas/groupLabels/index.js';
import { groupsArea } from './areas/groups/index.js';
import { integrationsArea } from './areas/integrations/index.js';
import { issuesArea } from './areas/issues/index.js';
import { membersArea } from './areas/members/index.js';
import { mergeRequestsArea } from './areas/mergeRequests/index.js';
import { notesArea } from './areas/notes/index.js';
import { notificationSettingsArea } from './areas/notificationSettings/index.js';
import { personalAccessTokensArea } from './areas/personalAccessTokens/index.js';
import { pipelinesArea } from './areas/pipelines/index.js';
import { projectHooksArea } from './areas/projectHooks/index.js';
import { projectImportExportArea } from './areas/projectImportExport/index.js';
import { projectsArea, projectUploadsRouter } from './areas/projects/index.js';
import { protectedBranchesArea } from './areas/protectedBranches/index.js';
import { remoteMirrorsArea } from './areas/remoteMirrors/index.js';
import { repositoryFilesArea } from './areas/repositoryFiles/index.js';
import { SCIM_BASE_PATH, scimArea, scimErrorHandler, scimNotFoundHandler } from './areas/scim/index.js';
import { snippetsArea } from './areas/snippets/index.js';
import { storageMovesArea } from './areas/storageMoves/index.js';
import { todosArea } from './areas/todos/index.js';
import { usersArea } from './areas/users/index.js';
import { versionArea } from './areas/version/index.js';
import type { Area } from './core/area.js';
import type { ServerContext } from './core/context.js';
import { type DataDirectoryOptions, openDataDirectory } from './core/dataDirectory.js';
import { accessLog } from './core/http/accessLog.js';
import { authenticate } from './core/http/auth.js';
import { databaseVersionRefresh } from './core/http/databaseVersionRefresh.js';
import { docsRouter } from './core/http/docs.js';
import { errorHandler } from './core/http/errors.js';
import { idleGate } from './core/http/idleGate.js';
import { jsonBody } from './core/http/jsonBody.js';
import { jsonWithoutCharset } from './core/http/jsonContentType.js';
import {
  apiDocumentFor,
  hasOwnServers,
  loadBundledSpec,
  operationIdsOf,
  operationsApi,
} from './core/http/openapi.js';
import { handlersByOperation } from './core/http/operations.js';
import { fastQueryParser, parseQueryOncePerRequest, type QueryParser } from './core/http/queryParser.js';
import { mergeDoubledSlashes } from './core/http/request.js';
import { inSeries, onlyWithBody, underPath } from './core/http/series.js';

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
  accessRequestsArea,
  badgesArea,
  projectHooksArea,
  groupsArea,
  projectsArea,
  issuesArea,
  mergeRequestsArea,
  notesArea,
  snippetsArea,
  versionArea,
  usersArea,
  personalAccessTokensArea,
  membersArea,
  todosArea,
  notificationSettingsArea,
  groupLabelsArea,
  epicsArea,
  appearanceArea,
  integrationsArea,
];

/** The areas that load a fixtures file, each its own part: every area, SCIM's served apart included. */
export const FIXTURE_AREAS: readonly Area[] = [...AREAS, scimArea];

export interface AppOptions extends DataDirectoryOptions {
  /** Validate every response against the spec (development and tests). */
  validateResponses?: boolean;
  /** Real seconds per declared second of a pipeline job (default 1); tests pass a small value. */
  pipelineTimeScale?: number;
  /**
   * Scheme, host and port clients reach the server at (links in hook payloads); default
   * `http://127.0.0.1:3000`, the address `pnpm start` listens on.
   */
  externalUrl?: string;
  /**
   * Run the background jobs in this process (default true). With several server processes on one data
   * directory exactly one runs them; the others only queue work.
   */
  runJobs?: boolean;
  /** Where the access log's lines go (one per answered request: core/http/accessLog.ts); none when unset. */
  accessLog?: (line: string) => void;
}

/** A handler made by the first request that reaches it (a router's routes are compiled when it is made). */
export function madeOnFirstUse(make: () => RequestHandler): RequestHandler {
  let handler: RequestHandler | undefined;
  return (req, res, next) => {
    handler ??= make();
    return handler(req, res, next);
  };
}

/** How long the server must have had no request before the warm-up compiles the next operation's validation. */
const WARM_UP_AFTER_QUIET_MILLISECONDS = 200;

export interface CollabApp {
  app: Express;
  context: ServerContext;
  /**
   * Compiles the request validation of every operation, one at a time, each once the server has been idle
   * for a moment (the validator compiles an operation's schemas on its first request otherwise). For a server
   * that has started listening; tests leave it out (their servers see a few operations each).
   */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

export async function createApp(options: AppOptions): Promise<CollabApp> {
  const context = await openDataDirectory({ ...options, fixtureAreas: FIXTURE_AREAS });
  const { db, jobs } = context;
  const areaOptions = {
    pipelineTimeScale: options.pipelineTimeScale ?? 1,
    externalUrl: options.externalUrl ?? 'http://127.0.0.1:3000',
  };
  for (const area of AREAS) area.registerJobs?.(context, areaOptions);
  if (options.runJobs ?? true) {
    await jobs.start();
    for (const area of AREAS) await area.atStart?.(context);
  }

  const app = express();
  app.disable('x-powered-by');
  const requestsInFlight = idleGate();
  app.use(requestsInFlight.middleware);
  if (options.accessLog) app.use(accessLog(options.accessLog));
  app.use(jsonWithoutCharset);
  // `custom_attributes[key]=value` and `upload[url]` need bracket parsing (Express 5 defaults to "simple");
  // queries without brackets take Node's cheaper parser (see fastQueryParser).
  app.set('query parser', 'extended');
  app.set('query parser', fastQueryParser(app.get('query parser fn') as QueryParser));
  parseQueryOncePerRequest(app);
  const spec = loadBundledSpec();
  const v4Document = apiDocumentFor(spec, '/api/v4', (path, item) => !hasOwnServers(path, item));
  // The SCIM API (document 2, 4.15): the paths that declare their own server, served under their own base
  // path; the scim area reads the group's bearer token itself, and every error below the base path is SCIM's.
  const scimDocument = apiDocumentFor(spec, SCIM_BASE_PATH, hasOwnServers);
  // The start check: every operation of the spec has a handler, every handler an operation.
  const handlers = handlersByOperation(
    [...operationIdsOf(v4Document), ...operationIdsOf(scimDocument)],
    [...AREAS, scimArea].map((area) => ({ name: area.name, handlers: area.handlers(context) })),
  );
  const validateResponses = options.validateResponses ?? false;
  const scimApi = operationsApi({ apiSpec: scimDocument, handlers, validateResponses });
  const v4Api = operationsApi({ apiSpec: v4Document, handlers, validateResponses });
  app.use(
    underPath(
      SCIM_BASE_PATH,
      inSeries([
        mergeDoubledSlashes,
        onlyWithBody(jsonBody('50mb')),
        databaseVersionRefresh(db),
        scimApi.middleware,
        scimNotFoundHandler,
      ]),
    ),
  );
  // One layer for the whole API (see inSeries): body parsers, authentication, then the operation's steps.
  app.use(
    inSeries([
      mergeDoubledSlashes,
      onlyWithBody(jsonBody('50mb')),
      onlyWithBody(express.urlencoded({ extended: true, limit: '50mb' })),
      underPath('/api/v4', databaseVersionRefresh(db)),
      underPath('/api/v4', authenticate(db)),
      v4Api.middleware,
    ]),
  );
  // After the API, so that API requests do not walk the docs routes first. Each of these routers is made by
  // the first request that reaches it, not at start: an API request never does.
  app.use(madeOnFirstUse(() => docsRouter()));
  // Files uploaded to projects, at their `full_path` on the server's root (outside the API, as GitLab).
  app.use(madeOnFirstUse(() => projectUploadsRouter(context)));
  // The appearance's images, at GitLab's /uploads/-/system/appearance/... (outside the API, to anyone).
  app.use(madeOnFirstUse(() => appearanceImagesRouter(context)));
  // The avatars of groups and projects, at GitLab's /uploads/-/system/<group|project>/avatar/... (to
  // whoever may see the group or project).
  app.use(madeOnFirstUse(() => avatarsRouter(context)));

  // The catch-all of a path nothing routes (an API path no operation has is the API's own 404).
  app.use((_req, res) => {
    res.status(404).json({ message: '404 Not Found' });
  });
  app.use(((err, req, res, next) => {
    if (req.path === SCIM_BASE_PATH || req.path.startsWith(`${SCIM_BASE_PATH}/`))
      scimErrorHandler(err, req, res, next);
    else next(err);
  }) satisfies ErrorRequestHandler);
  app.use(errorHandler);

  return {
    app,
    context,
    warmUp: async () => {
      // Called once listening: the first requests of clients, which come at once after a start, are answered
      // before the warm-up's first compilation.
      requestsInFlight.markActivity();
      const whenIdle = () => requestsInFlight.whenIdle(WARM_UP_AFTER_QUIET_MILLISECONDS);
      await v4Api.warmUp(app, whenIdle);
      await scimApi.warmUp(app, whenIdle);
    },
    close: async () => {
      await jobs.stop();
      await db.destroy();
    },
  };
}
