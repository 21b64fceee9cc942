// The webhooks of a fixtures file's projects (flags left out are off; SSL verification is on by default).
import type { AreaFixtures } from '../../core/area.js';
import { insertHook } from './store.js';

export const projectHooksFixtures: AreaFixtures = {
  after: ['projects'],
  async load({ fixtures, trx, now, projects }) {
    const flag = (value: boolean | undefined): number => (value ? 1 : 0);
    for (const project of fixtures.projects) {
      const projectId = projects.get(`${project.namespace}/${project.path}`).id;
      for (const hook of project.hooks ?? [])
        await insertHook(trx, {
          project_id: projectId,
          url: hook.url,
          token: hook.token ?? null,
          push_events: flag(hook.push_events),
          tag_push_events: flag(hook.tag_push_events),
          issues_events: flag(hook.issues_events),
          confidential_issues_events: flag(hook.confidential_issues_events),
          merge_requests_events: flag(hook.merge_requests_events),
          note_events: flag(hook.note_events),
          confidential_note_events: flag(hook.confidential_note_events),
          job_events: flag(hook.job_events),
          pipeline_events: flag(hook.pipeline_events),
          wiki_page_events: flag(hook.wiki_page_events),
          push_events_branch_filter: hook.push_events_branch_filter ?? '',
          enable_ssl_verification: flag(hook.enable_ssl_verification ?? true),
          created_at: now,
        });
    }
  },
};
