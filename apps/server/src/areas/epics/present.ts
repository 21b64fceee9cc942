// Epic rows → the spec's Epic body, a page at a time: authors, labels, votes, group paths and (for callers
// who may edit) the date fields are read in a few queries for the whole page.

import type { Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { presentUser, usersById } from '../issuables/index.js';
import { type LabelDetails, labelDetailsOf } from './labels.js';
import { type EpicRow, groupPaths, labelsOf, votesOf } from './store.js';

export type Epic = Schemas['Epic'];

/** How the page is shown: from which group it is asked for, and to whom. */
export interface EpicView {
  /** The group in the request's path: `references.relative` is relative to it. */
  requestedGroup: { id: number; fullPath: string };
  origin: string;
  /** Whether the caller may edit epics of this group (the fixed and inherited date fields appear). */
  canEdit(groupId: number): boolean;
  /** Label objects instead of names (`with_labels_details`). */
  withLabelDetails?: boolean;
  /** Single reads: `subscribed` for this user. */
  subscribedFor?: number;
}

/**
 * The epic's reference from the requested group: `&iid` in its own group; the path below the requested group
 * for an epic of a subgroup (`sub&2`); the full path otherwise (an ancestor's or an unrelated group's).
 */
export function references(
  iid: number,
  epicGroupPath: string,
  requestedGroupPath: string,
): Epic['references'] {
  const short = `&${iid}`;
  const full = `${epicGroupPath}${short}`;
  let relative = full;
  if (epicGroupPath === requestedGroupPath) relative = short;
  else if (epicGroupPath.startsWith(`${requestedGroupPath}/`))
    relative = `${epicGroupPath.slice(requestedGroupPath.length + 1)}${short}`;
  return { short, relative, full };
}

export async function presentEpics(db: Db, rows: readonly EpicRow[], view: EpicView): Promise<Epic[]> {
  const ids = rows.map((row) => row.id);
  const [labels, votes, authors, paths] = await Promise.all([
    labelsOf(db, ids),
    votesOf(db, ids),
    usersById(
      db,
      rows.map((row) => row.author_id),
    ),
    groupPaths(
      db,
      rows.map((row) => row.group_id),
    ),
  ]);
  const details = view.withLabelDetails
    ? await labelDetailsOf(
        db,
        rows.map((row) => ({ groupId: row.group_id, names: labels.get(row.id) ?? [] })),
      )
    : undefined;
  return rows.map((row) => {
    const author = authors.get(row.author_id);
    if (!author) throw new Error(`epic ${row.id}: author ${row.author_id} is missing`);
    const groupPath = paths.get(row.group_id);
    if (groupPath === undefined) throw new Error(`epic ${row.id}: group ${row.group_id} is missing`);
    const names = labels.get(row.id) ?? [];
    const rowVotes = votes.get(row.id) ?? { upvotes: 0, downvotes: 0 };
    const refs = references(row.iid, groupPath, view.requestedGroup.fullPath);
    const epic: Epic = {
      id: row.id,
      iid: row.iid,
      group_id: row.group_id,
      parent_id: row.parent_id,
      title: row.title,
      description: row.description,
      state: row.state === 'closed' ? 'closed' : 'opened',
      confidential: row.confidential === 1,
      web_url: `${view.origin}/groups/${groupPath}/-/epics/${row.iid}`,
      reference: refs.short,
      references: refs,
      author: presentUser(author, view.origin),
      start_date: row.start_date,
      end_date: row.end_date,
      due_date: row.end_date,
      created_at: row.created_at,
      updated_at: row.updated_at,
      closed_at: row.closed_at,
      labels: details ? names.map((name) => labelBody(details, row.group_id, name)) : names,
      upvotes: rowVotes.upvotes,
      downvotes: rowVotes.downvotes,
    };
    if (view.canEdit(row.group_id)) {
      epic.start_date_is_fixed = row.start_date_is_fixed === 1;
      epic.start_date_fixed = row.start_date_fixed;
      epic.start_date_from_milestones = row.start_date_inherited;
      epic.start_date_from_inherited_source = row.start_date_inherited;
      epic.due_date_is_fixed = row.due_date_is_fixed === 1;
      epic.due_date_fixed = row.due_date_fixed;
      epic.due_date_from_milestones = row.due_date_inherited;
      epic.due_date_from_inherited_source = row.due_date_inherited;
    }
    // Without subscriptions of their own, participants are subscribed: the author is.
    if (view.subscribedFor !== undefined) epic.subscribed = row.author_id === view.subscribedFor;
    return epic;
  });
}

function labelBody(details: LabelDetails, groupId: number, name: string): Schemas['EpicLabelDetails'] {
  return details.get(groupId, name);
}
