// The stored project settings (migration 018, issues and merge requests from 012): what `POST /projects` and
// `PUT /projects/:id` may set besides name, path, namespace and visibility, read from a request body into
// column values, and read back from a row for the full form. The API names are the column names; booleans
// are stored as 0/1.
import type { Updateable } from 'kysely';
import type { ProjectRow } from '../../core/access/access.js';
import { invalidParameter } from '../../core/http/errors.js';
import type { Schemas } from '../../core/http/types.js';
import type { ProjectsTable } from '../../core/store/tables.js';

/** The settings part of a create or edit body (every property optional). */
export type SettingsRequest = Schemas['ProjectSettingsRequest'];

export type ProjectChanges = Updateable<ProjectsTable>;

/** The on/off settings, by their API (and column) names. */
export const FLAG_SETTINGS = [
  'issues_enabled',
  'merge_requests_enabled',
  'wiki_enabled',
  'jobs_enabled',
  'snippets_enabled',
  'container_registry_enabled',
  'shared_runners_enabled',
  'public_jobs',
  'request_access_enabled',
  'only_allow_merge_if_pipeline_succeeds',
  'allow_merge_on_skipped_pipeline',
  'only_allow_merge_if_all_discussions_are_resolved',
  'remove_source_branch_after_merge',
  'resolve_outdated_diff_discussions',
  'autoclose_referenced_issues',
  'auto_devops_enabled',
  'packages_enabled',
  'lfs_enabled',
  'printing_merge_request_link_enabled',
  'emails_disabled',
] as const;
export type FlagSetting = (typeof FLAG_SETTINGS)[number];

/** The settings whose values are one of a few words (the spec's enums check them). */
const CHOICE_SETTINGS = [
  'merge_method',
  'auto_devops_deploy_strategy',
  'auto_cancel_pending_pipelines',
] as const;

/** Free-text settings; an empty string clears them (null), as GitLab stores a blank value. */
const TEXT_SETTINGS = ['suggestion_commit_message', 'ci_config_path'] as const;

const MAX_TOPICS = 50;

/**
 * Topics as GitLab reads them: a list, or one comma-separated string; each trimmed, blanks dropped,
 * duplicates (ignoring case) kept once.
 */
export function parseTopics(value: unknown, field: string): string[] {
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
  if (items === null) throw invalidParameter(field);
  const topics: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (typeof item !== 'string') throw invalidParameter(field);
    const topic = item.trim();
    if (topic === '' || seen.has(topic.toLowerCase())) continue;
    if (topic.length > 255) throw invalidParameter(field, 'a topic is longer than 255 characters');
    seen.add(topic.toLowerCase());
    topics.push(topic);
  }
  if (topics.length > MAX_TOPICS) throw invalidParameter(field, `more than ${MAX_TOPICS} topics`);
  return topics;
}

/**
 * The column values a body's settings give. A property that is absent or null is not given (the server drops
 * JSON nulls; the typeof checks keep that true whatever arrives). Where a deprecated name and its replacement
 * are both given, the replacement wins (`public_jobs` over `public_builds`, `emails_enabled` over
 * `emails_disabled`, `topics` over `tag_list`).
 */
export function settingsChanges(body: SettingsRequest): ProjectChanges {
  const changes: ProjectChanges = {};
  const given = body as Record<string, unknown>;
  for (const flag of FLAG_SETTINGS) {
    const value = given[flag];
    if (typeof value === 'boolean') changes[flag] = value ? 1 : 0;
  }
  if (typeof body.public_builds === 'boolean' && typeof body.public_jobs !== 'boolean')
    changes.public_jobs = body.public_builds ? 1 : 0;
  if (typeof body.emails_enabled === 'boolean') changes.emails_disabled = body.emails_enabled ? 0 : 1;
  for (const setting of CHOICE_SETTINGS) {
    const value = given[setting];
    if (typeof value === 'string') changes[setting] = value;
  }
  for (const setting of TEXT_SETTINGS) {
    const value = given[setting];
    if (typeof value === 'string') changes[setting] = value.trim() === '' ? null : value;
  }
  if (typeof body.description === 'string') changes.description = body.description;
  if (typeof body.build_timeout === 'number') changes.build_timeout = body.build_timeout;
  const topics = body.topics ?? body.tag_list;
  if (topics !== undefined && topics !== null)
    changes.topics = JSON.stringify(parseTopics(topics, body.topics != null ? 'topics' : 'tag_list'));
  return changes;
}

/** A row's topics (a JSON array of strings; anything else reads as none). */
export function topicsOf(row: Pick<ProjectRow, 'topics'>): string[] {
  try {
    const topics: unknown = JSON.parse(row.topics);
    return Array.isArray(topics) ? topics.filter((topic): topic is string => typeof topic === 'string') : [];
  } catch {
    return [];
  }
}
