// Hook rows → the spec's ProjectHook body. The token is a secret: it is never part of a response.
import type { Schemas } from '../../core/http/types.js';
import { hookAlertStatus } from './backoff.js';
import type { HookRow } from './store.js';

export type ProjectHook = Schemas['ProjectHook'];

export function presentHook(row: HookRow): ProjectHook {
  return {
    id: row.id,
    url: row.url,
    project_id: row.project_id,
    push_events: row.push_events === 1,
    push_events_branch_filter: row.push_events_branch_filter,
    issues_events: row.issues_events === 1,
    confidential_issues_events: row.confidential_issues_events === 1,
    merge_requests_events: row.merge_requests_events === 1,
    tag_push_events: row.tag_push_events === 1,
    note_events: row.note_events === 1,
    job_events: row.job_events === 1,
    pipeline_events: row.pipeline_events === 1,
    wiki_page_events: row.wiki_page_events === 1,
    enable_ssl_verification: row.enable_ssl_verification === 1,
    created_at: row.created_at,
    alert_status: hookAlertStatus(row, Date.now()),
    disabled_until: row.disabled_until,
  };
}
