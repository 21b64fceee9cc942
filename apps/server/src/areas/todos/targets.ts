// The objects to-dos are about, presented for the to-do list a page at a time. Issues and merge requests are
// presented here (from their tables, through the issues area's shared readers); an area with other targets
// (epics) registers a presenter for its type through registerTodoTarget, so that this area never reaches
// into its internals. To-dos whose target type has no presenter are not listed.
import type { ServerContext } from '../../core/context.js';
import type { Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { labelsOf, presentUser, usersById, usersOf } from '../issues/index.js';

export type TodoTarget = Schemas['TodoTarget'];

/** A presented target and the web URL the to-do links to. */
export interface PresentedTarget {
  target: TodoTarget;
  url: string;
}

/** Presents the targets with these IDs; a missing one (deleted meanwhile) is left out of the map. */
export type TodoTargetPresenter = (
  context: ServerContext,
  ids: readonly number[],
  origin: string,
) => Promise<Map<number, PresentedTarget>>;

const presenters = new Map<string, TodoTargetPresenter>();

/** Lets the to-do list show to-dos about objects of `type` (`Epic` …), presented by `presenter`. */
export function registerTodoTarget(type: string, presenter: TodoTargetPresenter): void {
  presenters.set(type, presenter);
}

export function todoTargetTypes(): string[] {
  return [...presenters.keys()];
}

export function todoTargetPresenter(type: string): TodoTargetPresenter | undefined {
  return presenters.get(type);
}

/** `group/subgroup/project` of each project, by ID, in one query. */
async function projectPaths(db: Db, projectIds: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(projectIds)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('projects as p')
    .innerJoin('groups as g', 'g.id', 'p.namespace_id')
    .select(['p.id', 'p.path', 'g.full_path'])
    .where('p.id', 'in', unique)
    .execute();
  return new Map(rows.map((row) => [row.id, `${row.full_path}/${row.path}`]));
}

registerTodoTarget('Issue', async (context, ids, origin) => {
  const db = context.db;
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom('issues')
          .selectAll()
          .where('id', 'in', [...ids])
          .execute();
  const [labels, assignees, authors, paths] = await Promise.all([
    labelsOf(db, 'Issue', ids),
    usersOf(db, 'Issue', 'assignee', ids),
    usersById(
      db,
      rows.map((row) => row.author_id),
    ),
    projectPaths(
      db,
      rows.map((row) => row.project_id),
    ),
  ]);
  const presented = new Map<number, PresentedTarget>();
  for (const row of rows) {
    const author = authors.get(row.author_id);
    if (!author) continue;
    const firstAssignee = assignees.get(row.id)?.[0];
    presented.set(row.id, {
      url: `${origin}/${paths.get(row.project_id) ?? ''}/-/issues/${row.iid}`,
      target: {
        id: row.id,
        iid: row.iid,
        project_id: row.project_id,
        title: row.title,
        description: row.description,
        state: row.state,
        created_at: row.created_at,
        updated_at: row.updated_at,
        closed_at: row.closed_at,
        labels: labels.get(row.id) ?? [],
        milestone: null,
        assignees: (assignees.get(row.id) ?? []).map((user) => presentUser(user, origin)),
        author: presentUser(author, origin),
        assignee: firstAssignee ? presentUser(firstAssignee, origin) : null,
        user_notes_count: 0,
        upvotes: 0,
        downvotes: 0,
        due_date: row.due_date,
        confidential: row.confidential === 1,
        web_url: `${origin}/${paths.get(row.project_id) ?? ''}/-/issues/${row.iid}`,
      },
    });
  }
  return presented;
});

registerTodoTarget('MergeRequest', async (context, ids, origin) => {
  const db = context.db;
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom('merge_requests')
          .selectAll()
          .where('id', 'in', [...ids])
          .execute();
  const [labels, assignees, authors, paths] = await Promise.all([
    labelsOf(db, 'MergeRequest', ids),
    usersOf(db, 'MergeRequest', 'assignee', ids),
    usersById(
      db,
      rows.map((row) => row.author_id),
    ),
    projectPaths(
      db,
      rows.map((row) => row.project_id),
    ),
  ]);
  const presented = new Map<number, PresentedTarget>();
  for (const row of rows) {
    const author = authors.get(row.author_id);
    if (!author) continue;
    const firstAssignee = assignees.get(row.id)?.[0];
    const url = `${origin}/${paths.get(row.project_id) ?? ''}/-/merge_requests/${row.iid}`;
    presented.set(row.id, {
      url,
      target: {
        id: row.id,
        iid: row.iid,
        project_id: row.project_id,
        title: row.title,
        description: row.description,
        state: row.state,
        created_at: row.created_at,
        updated_at: row.updated_at,
        target_branch: row.target_branch,
        source_branch: row.source_branch,
        upvotes: 0,
        downvotes: 0,
        author: presentUser(author, origin),
        assignee: firstAssignee ? presentUser(firstAssignee, origin) : null,
        source_project_id: row.source_project_id,
        target_project_id: row.project_id,
        labels: labels.get(row.id) ?? [],
        work_in_progress: /^\s*(\[draft\]|\(draft\)|draft:|draft\b|\[wip\]|wip:|wip\b)/i.test(row.title),
        milestone: null,
        merge_when_pipeline_succeeds: row.merge_when_pipeline_succeeds === 1,
        merge_status: row.merge_status,
        user_notes_count: 0,
        web_url: url,
      },
    });
  }
  return presented;
});
