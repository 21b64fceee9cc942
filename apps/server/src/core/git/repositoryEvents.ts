// Tells interested areas (remote mirrors, for one) that a project's repository changed: a commit, a new or
// deleted branch. Listeners should only enqueue work; they run inside the request that changed the repository.
import type { Db } from '../store/database.js';

export type RepositoryChangeListener = (projectId: number) => Promise<void>;

export class RepositoryEvents {
  private readonly listeners: RepositoryChangeListener[] = [];

  onChange(listener: RepositoryChangeListener): void {
    this.listeners.push(listener);
  }

  async changed(db: Db, projectId: number): Promise<void> {
    await db
      .updateTable('projects')
      .set((eb) => ({
        last_activity_at: new Date().toISOString(),
        repository_generation: eb('repository_generation', '+', 1),
      }))
      .where('id', '=', projectId)
      .execute();
    for (const listener of this.listeners) await listener(projectId);
  }
}
