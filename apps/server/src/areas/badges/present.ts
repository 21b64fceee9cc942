// Badge rows → the spec's Badge and BadgePreview bodies, with the URLs rendered.

import type { Schemas } from '../../core/http/types.js';
import { type PlaceholderValues, renderUrl } from './rules.js';
import type { BadgeRow } from './store.js';

export type Badge = Schemas['Badge'];
export type BadgePreview = Schemas['BadgePreview'];

export function presentBadge(row: BadgeRow, values: PlaceholderValues | null): Badge {
  return {
    name: row.name,
    id: row.id,
    link_url: row.link_url,
    image_url: row.image_url,
    rendered_link_url: renderUrl(row.link_url, values),
    rendered_image_url: renderUrl(row.image_url, values),
    kind: row.project_id === null ? 'group' : 'project',
  };
}

export function presentPreview(
  urls: { link_url: string; image_url: string },
  values: PlaceholderValues | null,
): BadgePreview {
  return {
    link_url: urls.link_url,
    image_url: urls.image_url,
    rendered_link_url: renderUrl(urls.link_url, values),
    rendered_image_url: renderUrl(urls.image_url, values),
  };
}
