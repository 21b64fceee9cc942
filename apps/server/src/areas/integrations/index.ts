// Project integrations (document 2, sections 2, 4.16, 5 and 6): each slug's settings under
// `/projects/:id/services/…` and `/projects/:id/integrations/…`, and what the integrations with a webhook or a
// server send on push and pipeline events, from the job queue (e-mails go to the outbox under the data
// directory).
import type { Area } from '../../core/area.js';
import { DEFAULT_INTEGRATION_DELIVERY, registerIntegrationDeliveryJob } from './delivery.js';
import { registerIntegrationEvents } from './events.js';
import { integrationsFixtures } from './fixtures.js';
import { integrationsRouter } from './routes.js';

export { outboxDirectory } from './delivery.js';

export const integrationsArea: Area = {
  name: 'integrations',
  fixtures: integrationsFixtures,
  router: integrationsRouter,
  registerJobs: (context, options) => {
    registerIntegrationDeliveryJob(context, DEFAULT_INTEGRATION_DELIVERY);
    registerIntegrationEvents(context, options.externalUrl);
  },
};
