// Issue rows → the spec's Issue body, a page at a time: labels, assignees and the users named by the rows are
// read in three queries for the whole page.

import type { Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import {
  type IssuableUser,
  labelsOf,
  NO_TIME_STATS,
  presentAcrossProjects,
  presentUser,
  taskCompletion,
  usersById,
  usersOf,
} from '../issuables/index.js';
import { type IssueRow, issuesById } from './store.js';

export type Issue = Schemas['Issue'];

/** Where the issues live: the project's ID and full path, and the server's origin for URLs. */
export interface IssueSetting {
  projectId: number;
  fullPath: string;
  origin: string;
}

/** The page's issues as the API shows them; `subscribedFor` (single reads) adds `subscribed` for that user. */
export async function presentIssues(
  db: Db,
  rows: readonly IssueRow[],
  setting: IssueSetting,
  subscribedFor?: { userId: number | null },
): Promise<Issue[]> {
  const ids = rows.map((row) => row.id);
  const [labels, assignees, users] = await Promise.all([
    labelsOf(db, 'Issue', ids),
    usersOf(db, 'Issue', 'assignee', ids),
    usersById(
      db,
      rows.flatMap((row) =>
        row.closed_by_id === null ? [row.author_id] : [row.author_id, row.closed_by_id],
      ),
    ),
  ]);
  return rows.map((row) => {
    const rowAssignees = assignees.get(row.id) ?? [];
    const author = users.get(row.author_id);
    if (!author) throw new Error(`issue ${row.id}: author ${row.author_id} is missing`);
    const closedBy = row.closed_by_id === null ? undefined : users.get(row.closed_by_id);
    const issue = issueBody(row, setting, {
      labels: labels.get(row.id) ?? [],
      assignees: rowAssignees,
      author,
      closedBy: closedBy ?? null,
    });
    if (subscribedFor) {
      // Without subscriptions of their own, the participants are subscribed: its author and assignees.
      const userId = subscribedFor.userId;
      issue.subscribed =
        userId !== null && (row.author_id === userId || rowAssignees.some((user) => user.id === userId));
    }
    return issue;
  });
}

/**
 * The issues with these IDs, of any projects, as the list shows them (GitLab's Entities::Issue, which other
 * objects embed: a to-do's target), by ID; a missing one is left out. A few queries per project.
 */
export async function presentIssuesById(
  db: Db,
  ids: readonly number[],
  origin: string,
): Promise<Map<number, Issue>> {
  return presentAcrossProjects(db, await issuesById(db, ids), (rows, projectId, fullPath) =>
    presentIssues(db, rows, { projectId, fullPath, origin }),
  );
}

function issueBody(
  row: IssueRow,
  setting: IssueSetting,
  related: {
    labels: string[];
    assignees: IssuableUser[];
    author: IssuableUser;
    closedBy: IssuableUser | null;
  },
): Issue {
  const { origin, fullPath } = setting;
  const assignees = related.assignees.map((user) => presentUser(user, origin));
  const tasks = taskCompletion(row.description);
  const apiUrl = `${origin}/api/v4/projects/${row.project_id}`;
  const issue: Issue = {
    id: row.id,
    iid: row.iid,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    state: row.state === 'closed' ? 'closed' : 'opened',
    created_at: row.created_at,
    updated_at: row.updated_at,
    closed_at: row.closed_at,
    closed_by: related.closedBy ? presentUser(related.closedBy, origin) : null,
    labels: related.labels,
    milestone: null,
    assignees,
    author: presentUser(related.author, origin),
    type: 'ISSUE',
    assignee: assignees[0] ?? null,
    user_notes_count: 0,
    merge_requests_count: 0,
    upvotes: 0,
    downvotes: 0,
    due_date: row.due_date,
    confidential: row.confidential === 1,
    discussion_locked: row.discussion_locked === null ? null : row.discussion_locked === 1,
    issue_type: 'issue',
    web_url: `${origin}/${fullPath}/-/issues/${row.iid}`,
    time_stats: { ...NO_TIME_STATS },
    task_completion_status: tasks,
    has_tasks: tasks.count > 0,
    _links: {
      self: `${apiUrl}/issues/${row.iid}`,
      notes: `${apiUrl}/issues/${row.iid}/notes`,
      award_emoji: `${apiUrl}/issues/${row.iid}/award_emoji`,
      project: apiUrl,
      closed_as_duplicate_of: null,
    },
    references: { short: `#${row.iid}`, relative: `#${row.iid}`, full: `${fullPath}#${row.iid}` },
    severity: 'UNKNOWN',
    moved_to_id: null,
    imported: false,
    imported_from: 'none',
    service_desk_reply_to: null,
  };
  if (tasks.count > 0)
    issue.task_status = `${tasks.completed_count} of ${tasks.count} checklist items completed`;
  return issue;
}
