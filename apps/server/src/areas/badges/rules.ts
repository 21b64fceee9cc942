// What a badge's URLs may be and how their placeholders are replaced (GitLab's Badge model and
// Gitlab::StringPlaceholderReplacer). No database and no git here: the service gathers the values.

import { ApiError } from '../../core/http/errors.js';

/** The values a badge's placeholders take: those of one project. */
export interface PlaceholderValues {
  /** Full path, `group/subgroup/project`. */
  project_path: string;
  /** The project's path (its last segment): GitLab's `%{project_name}`. */
  project_name: string;
  project_id: string;
  default_branch: string;
  /** The head commit of the default branch; null for an empty repository (the placeholder then stays). */
  commit_sha: string | null;
}

/**
 * `%{name}`, also URL-encoded as `%25%7Bname%7D` (a URL pasted from a browser): GitLab's pattern. Names it
 * does not know stay as they are.
 */
const PLACEHOLDER =
  /%(?:\{|25%7B)(project_path|project_name|project_id|default_branch|commit_sha)(?:\}|%7D)/g;

/** The URL with its placeholders replaced; without a project (a group without one) it is unchanged. */
export function renderUrl(url: string, values: PlaceholderValues | null): string {
  if (!values) return url;
  return url.replace(PLACEHOLDER, (match, name: keyof PlaceholderValues) => values[name] ?? match);
}

/** GitLab's limit on a badge name (a varchar(255) column). */
export const MAX_NAME_LENGTH = 255;

/**
 * Why `url` is no badge URL, or undefined when it is one: an absolute http(s) URL with a host, as GitLab's
 * URL validator wants. Placeholders count as text (a host may be one, `https://%{project_name}.example`).
 */
export function badgeUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.replace(PLACEHOLDER, 'placeholder'));
  } catch {
    return 'must be a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return 'is blocked: Only allowed schemes are http, https';
  if (parsed.hostname === '') return 'must be a valid URL';
  return undefined;
}

/** Checks the fields a create or an update gives: 400 with GitLab's per-field messages. */
export function checkBadgeFields(fields: { link_url?: string; image_url?: string; name?: string }): void {
  const problems: Record<string, string[]> = {};
  for (const field of ['link_url', 'image_url'] as const) {
    const value = fields[field];
    const problem = value === undefined ? undefined : badgeUrlProblem(value);
    if (problem) problems[field] = [problem];
  }
  // Characters as GitLab (and the spec's maxLength) count them: code points, not UTF-16 units.
  if (fields.name !== undefined && [...fields.name].length > MAX_NAME_LENGTH)
    problems.name = [`is too long (maximum is ${MAX_NAME_LENGTH} characters)`];
  if (Object.keys(problems).length > 0) throw new ApiError(400, { message: problems });
}
