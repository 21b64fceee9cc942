// Label rows → the spec's GroupLabel bodies.
import type { Schemas } from '../../core/http/types.js';
import { textColorFor } from './colors.js';
import type { LabelCounts, LabelRow } from './store.js';

export type GroupLabel = Schemas['GroupLabel'];

/** The description as HTML: its text, escaped (no Markdown renderer here; plain text reads the same). */
function descriptionHtml(description: string | null): string | null {
  if (description === null) return null;
  return description
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

export function presentLabel(row: LabelRow, subscribed: boolean, counts?: LabelCounts): GroupLabel {
  return {
    id: row.id,
    name: row.title,
    color: row.color,
    text_color: textColorFor(row.color),
    description: row.description,
    description_html: descriptionHtml(row.description),
    ...(counts ?? {}),
    subscribed,
  };
}
