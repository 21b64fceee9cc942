// The active integrations of a fixtures file's projects: settings as the slug's PUT takes them, and the
// event flags the file turns on.
import type { AreaFixtures } from '../../core/area.js';
import { insertIntegration } from './store.js';

export const integrationsFixtures: AreaFixtures = {
  after: ['projects'],
  async load({ fixtures, trx, now, projects }) {
    const flag = (value: boolean | undefined): number => (value ? 1 : 0);
    for (const project of fixtures.projects) {
      const projectId = projects.get(`${project.namespace}/${project.path}`).id;
      for (const integration of project.integrations ?? [])
        await insertIntegration(trx, {
          project_id: projectId,
          slug: integration.slug,
          active: 1,
          properties: JSON.stringify(integration.properties),
          push_events: flag(integration.push_events),
          tag_push_events: flag(integration.tag_push_events),
          merge_requests_events: flag(integration.merge_requests_events),
          pipeline_events: flag(integration.pipeline_events),
          created_at: now,
          updated_at: now,
        });
    }
  },
};
