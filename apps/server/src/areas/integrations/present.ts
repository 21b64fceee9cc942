// Integration rows → response bodies: the list item (GitLab's ProjectIntegrationBasic) and the settings read
// (ProjectIntegration: the list item and `properties`, secrets left out).
import type { ResponseBody, Schemas } from '../../core/http/types.js';
import { CATALOG, type GetOperation, type Slug } from './catalog.js';
import { readSettings, visibleSettings } from './settings.js';
import type { IntegrationRow } from './store.js';

export type IntegrationListItem = Schemas['IntegrationListItem'];
/** The settings read of any slug (each slug's schema is one member). */
export type IntegrationSettings = ResponseBody<GetOperation, 200>;

export function presentListItem(row: IntegrationRow): IntegrationListItem {
  return {
    id: row.id,
    title: CATALOG[row.slug as Slug].title,
    slug: row.slug,
    created_at: row.created_at,
    updated_at: row.updated_at,
    active: row.active === 1,
    commit_events: row.commit_events === 1,
    push_events: row.push_events === 1,
    issues_events: row.issues_events === 1,
    confidential_issues_events: row.confidential_issues_events === 1,
    merge_requests_events: row.merge_requests_events === 1,
    tag_push_events: row.tag_push_events === 1,
    note_events: row.note_events === 1,
    confidential_note_events: row.confidential_note_events === 1,
    pipeline_events: row.pipeline_events === 1,
    wiki_page_events: row.wiki_page_events === 1,
    job_events: row.job_events === 1,
    comment_on_event_enabled: row.comment_on_event_enabled === 1,
  };
}

export function presentSettings(slug: Slug, row: IntegrationRow): IntegrationSettings {
  const properties = visibleSettings(slug, readSettings(row));
  // The catalog's fields are the slug's schema properties (catalog.ts ties them to the spec's PUT body),
  // and the required ones are always stored: this is the slug's member of the union.
  return { ...presentListItem(row), properties } as IntegrationSettings;
}
