// The labels of epics: their details (`with_labels_details`) from the labels of the epic's group and its
// ancestors (the labels an epic of the group can carry), matched by title as GitLab matches them. Label
// names are read by the issuables' `labelNames`, as for issues and merge requests.

import { sql } from 'kysely';
import type { Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';

type LabelBody = Schemas['EpicLabelDetails'];

/** GitLab's colour of a label made without one (Label::DEFAULT_COLOR). */
const DEFAULT_COLOR = '#6699cc';

/**
 * The text colour GitLab shows on a label's colour (LabelsHelper#text_color_for_bg): `#333333` on light
 * colours, `#FFFFFF` on dark ones (perceived brightness above 186 of 255), as the group labels API shows it.
 */
export function textColorFor(color: string): string {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16) || 0);
  return (r ?? 0) * 0.299 + (g ?? 0) * 0.587 + (b ?? 0) * 0.114 > 186 ? '#333333' : '#FFFFFF';
}

/**
 * A label description as HTML. GitLab renders it as one line of Markdown; without a Markdown renderer here
 * the text is shown literally, escaped, as the group labels API shows it.
 */
function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

export interface LabelDetails {
  get(groupId: number, name: string): LabelBody;
}

interface LabelRow {
  group_id: number;
  title: string;
  color: string;
  description: string | null;
  depth: number;
}

/**
 * The details of the page's labels: for each epic group, the label of that title nearest in its hierarchy.
 * A name no label carries (a label deleted since) shows GitLab's default colour and no description.
 */
export async function labelDetailsOf(
  db: Db,
  epics: readonly { groupId: number; names: readonly string[] }[],
): Promise<LabelDetails> {
  const groupIds = [...new Set(epics.map((epic) => epic.groupId))];
  const titles = [...new Set(epics.flatMap((epic) => epic.names))];
  const found = new Map<string, LabelRow>();
  if (groupIds.length > 0 && titles.length > 0) {
    const { rows } = await sql<LabelRow>`
      select up.group_id as group_id, l.title as title, l.color as color, l.description as description,
        up.depth as depth
      from group_ancestors as up
      join labels as l on l.group_id = up.ancestor_id
      where up.group_id in (${sql.join(groupIds)}) and l.title in (${sql.join(titles)})
      order by up.depth desc`.execute(db);
    // Nearest last: a subgroup's label of a title hides its ancestors'.
    for (const row of rows) found.set(`${row.group_id}\0${row.title}`, row);
  }
  return {
    get(groupId, name) {
      const row = found.get(`${groupId}\0${name}`);
      const color = row?.color ?? DEFAULT_COLOR;
      const description = row?.description ?? null;
      return {
        name,
        color,
        description,
        description_html: description === null ? null : escapeHtml(description),
        text_color: textColorFor(color),
      };
    },
  };
}
