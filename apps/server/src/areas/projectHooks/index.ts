// Project hooks (document 2, sections 2, 4.3 and 6): the list and read of a project's webhooks, and their
// deliveries: push, tag push and pipeline events, sent from the job queue with retries.
import type { Area } from '../../core/area.js';
import {
  DEFAULT_RETRY_DELAYS_MS,
  DEFAULT_TIMEOUT_MS,
  type DeliveryOptions,
  registerDeliveryJob,
} from './delivery.js';
import { registerHookEvents } from './events.js';
import { projectHooksFixtures } from './fixtures.js';
import { projectHooksHandlers } from './routes.js';

// What project integrations reuse: the event payloads and the sending of a request.
export { type AttemptResult, DEFAULT_RETRY_DELAYS_MS, DEFAULT_TIMEOUT_MS, postJson } from './delivery.js';
export { mergeRequestPayloadFor, pipelinePayloadFor, pushPayloadFor } from './events.js';
export { pushEventName } from './payloads.js';

export const projectHooksArea: Area = {
  name: 'projectHooks',
  fixtures: projectHooksFixtures,
  handlers: projectHooksHandlers,
  registerJobs: (context, options) => {
    const delivery: DeliveryOptions = {
      instanceUrl: options.externalUrl,
      timeoutMs: DEFAULT_TIMEOUT_MS,
      retryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
    };
    registerDeliveryJob(context, delivery);
    registerHookEvents(context, options.externalUrl);
  },
};
