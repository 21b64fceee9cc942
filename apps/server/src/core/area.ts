// What an area of the API gives the application: its handlers by operationId and, if it has them, its
// background job handlers and its fixtures loader.
import type { ServerContext } from './context.js';
import type { OperationHandlers } from './http/operations.js';
import type { FixtureLoad } from './store/fixtures.js';

/** Settings of the running application that some areas' background work reads. */
export interface AreaOptions {
  /** Real seconds per declared second of a pipeline job (1 in production; tests pass a small value). */
  pipelineTimeScale: number;
  /** Scheme, host and port clients reach this server at: links that leave a request (hook payloads). */
  externalUrl: string;
}

export interface Area {
  /** The area's name: its folder under `src/areas/`. */
  name: string;
  /** The handlers of the area's operations, each under its operationId. */
  handlers(context: ServerContext): OperationHandlers;
  /** Registers the area's job handlers on the queue (areas without background work leave this out). */
  registerJobs?(context: ServerContext, options: AreaOptions): void;
  /**
   * Queues what the area does once at start, after a stop that may have left work half-done (areas without
   * it leave this out). Run by the process that runs the jobs, once the queue has started.
   */
  atStart?(context: ServerContext): Promise<void>;
  /** Loads the area's part of a fixtures file (areas without fixtures leave this out). */
  fixtures?: AreaFixtures;
}

/** How an area loads its part of a fixtures file (core/store/fixtures.ts runs every area's in one transaction). */
export interface AreaFixtures {
  /** Areas whose fixtures must be loaded first (the users, groups or projects this area's objects name). */
  after: readonly string[];
  load(load: FixtureLoad): Promise<void>;
}
