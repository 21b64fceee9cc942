// The to-dos of a fixtures file: users' to-dos about the projects' issues and merge requests (targets by
// project path and iid), made after everything else; the body is the target's title unless the file says.
import type { AreaFixtures } from '../../core/area.js';
import { issuableKey } from '../../core/store/fixtures.js';
import { insertFixtureTodo } from './store.js';

export const todosFixtures: AreaFixtures = {
  after: ['users', 'issues', 'mergeRequests'],
  async load({ fixtures, trx, users, issuables }) {
    for (const todo of fixtures.todos ?? []) {
      const type = todo.target === 'issue' ? 'Issue' : 'MergeRequest';
      const target = issuables.find(issuableKey(todo.project, type, todo.iid));
      if (!target)
        throw new Error(`fixtures: to-do on ${todo.project} ${todo.target} ${todo.iid}: no such target`);
      await insertFixtureTodo(trx, {
        user_id: users.get(todo.user),
        author_id: users.get(todo.author),
        project_id: target.projectId,
        group_id: null,
        target_type: type,
        target_id: target.id,
        action: todo.action,
        body: todo.body ?? target.title,
        note_id: null,
        state: todo.state ?? 'pending',
        created_at: target.createdAt,
        updated_at: target.createdAt,
      });
    }
  },
};
