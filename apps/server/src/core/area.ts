// What an area of the API gives the application: its handlers by operationId and, if it has background
// work, its job handlers.
import type { ServerContext } from './context.js';
import type { OperationHandlers } from './http/operations.js';

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
}
