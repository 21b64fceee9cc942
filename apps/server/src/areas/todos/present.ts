// To-do rows → the spec's Todo bodies, a page at a time: authors, projects, groups and each target type
// are read in one query each for the whole page.
import type { ServerContext } from '../../core/context.js';
import type { Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { presentUser, usersById } from '../issuables/index.js';
import { ancestorNames, type TodoRow, todoGroupRows, todoProjectRows } from './store.js';
import { type PresentedTarget, todoTargetPresenter } from './targets.js';

export type Todo = Schemas['Todo'];
type TodoProject = Schemas['TodoProject'];
type TodoGroup = Schemas['TodoGroup'];

async function projectsById(db: Db, ids: readonly number[]): Promise<Map<number, TodoProject>> {
  const unique = [...new Set(ids)];
  const byId = new Map<number, TodoProject>();
  if (unique.length === 0) return byId;
  const rows = await todoProjectRows(db, unique);
  // name_with_namespace names every group of the chain: `Acme / Platform / Infra`.
  const chains = await ancestorNames(
    db,
    rows.map((row) => row.namespace_id),
  );
  for (const row of rows) {
    const names = chains.filter((link) => link.group_id === row.namespace_id).map((link) => link.name);
    byId.set(row.id, {
      id: row.id,
      name: row.name,
      name_with_namespace: [...names, row.name].join(' / '),
      path: row.path,
      path_with_namespace: `${row.full_path}/${row.path}`,
    });
  }
  return byId;
}

async function groupsById(db: Db, ids: readonly number[]): Promise<Map<number, TodoGroup>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await todoGroupRows(db, unique);
  return new Map(rows.map((row) => [row.id, { ...row, kind: 'group' }]));
}

/** The targets of the page, by type and ID. */
async function targetsOf(
  context: ServerContext,
  rows: readonly TodoRow[],
  origin: string,
): Promise<Map<string, Map<number, PresentedTarget>>> {
  const idsByType = new Map<string, number[]>();
  for (const row of rows)
    idsByType.set(row.target_type, [...(idsByType.get(row.target_type) ?? []), row.target_id]);
  const byType = new Map<string, Map<number, PresentedTarget>>();
  for (const [type, ids] of idsByType) {
    const presenter = todoTargetPresenter(type);
    byType.set(type, presenter ? await presenter(context, [...new Set(ids)], origin) : new Map());
  }
  return byType;
}

/**
 * The page's to-dos as the API shows them. A to-do whose target or author is gone (deleted meanwhile)
 * cannot be shown and is left out, as GitLab leaves out to-dos of deleted targets.
 */
export async function presentTodos(
  context: ServerContext,
  rows: readonly TodoRow[],
  origin: string,
): Promise<Todo[]> {
  const db = context.db;
  const [authors, projects, groups, targets] = await Promise.all([
    usersById(
      db,
      rows.map((row) => row.author_id),
    ),
    projectsById(
      db,
      rows.flatMap((row) => (row.project_id === null ? [] : [row.project_id])),
    ),
    groupsById(
      db,
      rows.flatMap((row) => (row.group_id === null ? [] : [row.group_id])),
    ),
    targetsOf(context, rows, origin),
  ]);
  const todos: Todo[] = [];
  for (const row of rows) {
    const author = authors.get(row.author_id);
    const target = targets.get(row.target_type)?.get(row.target_id);
    if (!author || !target) continue;
    const project = row.project_id === null ? undefined : projects.get(row.project_id);
    const group = row.group_id === null ? undefined : groups.get(row.group_id);
    todos.push({
      id: row.id,
      ...(project ? { project } : {}),
      ...(group ? { group } : {}),
      author: presentUser(author, origin),
      action_name: row.action as Todo['action_name'],
      target_type: row.target_type,
      target: target.target,
      target_url: target.url,
      body: row.body,
      state: row.state === 'done' ? 'done' : 'pending',
      created_at: row.created_at,
      updated_at: row.updated_at,
    });
  }
  return todos;
}
