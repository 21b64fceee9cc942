// The epic to-do (document 2, 4.7: POST /groups/:id/epics/:epic_iid/todo): a `marked` to-do for the caller,
// made through the todos area's createTodo; 304 when the caller already has one pending. Epics are also
// registered as to-do targets, so the caller's to-do list shows to-dos about epics.

import type { GroupRow } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import { requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import type { Schemas } from '../../core/http/types.js';
import { presentUser } from '../issuables/index.js';
import { createTodo, type PresentedTarget, registerTodoTarget } from '../todos/index.js';
import { type Epic, presentEpics } from './present.js';
import { epicGroup, readableEpic } from './service.js';
import { EPIC_TYPE, findEpicByIid, groupPaths } from './store.js';

type Todo = Schemas['Todo'];

/** An epic as a to-do's target: presented without label details, so its labels are names. */
function asTarget(epic: Epic): Todo['target'] {
  return { ...epic, labels: epic.labels.filter((label): label is string => typeof label === 'string') };
}

function todoGroup(group: GroupRow): NonNullable<Todo['group']> {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    kind: 'group',
    full_path: group.full_path,
    parent_id: group.parent_id,
  };
}

/** Makes the caller's `marked` to-do on the epic; `exists` when one is already pending (GitLab's 304). */
export async function createEpicTodo(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
  origin: string,
): Promise<Todo | 'exists'> {
  const user = requireUser(caller);
  const access = await epicGroup(context, caller, idOrPath, 'api');
  const found = Number.isSafeInteger(iid) ? await findEpicByIid(context.db, access.group.id, iid) : undefined;
  const row = readableEpic(access, found);
  const created = await createTodo(context.db, {
    userId: user.id,
    authorId: user.id,
    action: 'marked',
    target: { type: EPIC_TYPE, id: row.id },
    groupId: row.group_id,
    body: row.title,
  });
  if (!created.created) return 'exists';
  // The to-do as the todos area stored it (its times and state), shown as GitLab's to-do entity.
  const todo = await context.db
    .selectFrom('todos')
    .select(['id', 'state', 'body', 'created_at', 'updated_at'])
    .where('id', '=', created.id)
    .executeTakeFirstOrThrow();
  const [target] = await presentEpics(context.db, [row], {
    requestedGroup: { id: access.group.id, fullPath: access.group.full_path },
    origin,
    canEdit: () => false,
  });
  if (!target) throw new Error(`epic ${row.id} could not be presented`);
  return {
    id: todo.id,
    group: todoGroup(access.group),
    // Who made it: the caller, marking the epic for themselves.
    author: presentUser(
      {
        id: user.id,
        username: user.username,
        name: user.name,
        state: user.state,
        avatar_url: user.avatarUrl,
      },
      origin,
    ),
    action_name: 'marked',
    target_type: EPIC_TYPE,
    target: asTarget(target),
    target_url: target.web_url,
    body: todo.body,
    state: todo.state === 'done' ? 'done' : 'pending',
    created_at: todo.created_at,
    updated_at: todo.updated_at,
  };
}

// The to-do list presents epics as the single epic read shows them from their own group, without the fields
// only editors see (the list does not ask the caller's level in each group).
registerTodoTarget(EPIC_TYPE, async (context, ids, origin) => {
  const presented = new Map<number, PresentedTarget>();
  if (ids.length === 0) return presented;
  const rows = await context.db
    .selectFrom('epics')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  const paths = await groupPaths(
    context.db,
    rows.map((row) => row.group_id),
  );
  // References are relative to each epic's own group: one presentation per group of the page.
  for (const [groupId, fullPath] of paths) {
    const epics = await presentEpics(
      context.db,
      rows.filter((row) => row.group_id === groupId),
      { requestedGroup: { id: groupId, fullPath }, origin, canEdit: () => false },
    );
    for (const epic of epics) presented.set(epic.id, { target: asTarget(epic), url: epic.web_url });
  }
  return presented;
});
