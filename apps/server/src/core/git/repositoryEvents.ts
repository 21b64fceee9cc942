// Tells interested areas (remote mirrors, for one) that a project's repository changed: a commit, a new or
// deleted branch. Listeners should only enqueue work; they run inside the request that changed the repository.
import type { Db } from '../store/database.js';
import type { BranchCommitInfo } from './commitInfo.js';

/** The SHA of no commit: a ref's `before` when it was made, its `after` when it was deleted. */
export const ZERO_SHA = '0'.repeat(40);

/**
 * One ref a change moved: `before` and `after` are its old and new commits, the zero SHA when the change made
 * or deleted it (git's and GitLab's convention). `userId` made the change.
 */
export interface RefChange {
  /** The full ref name, `refs/heads/<branch>`. */
  ref: string;
  before: string;
  after: string;
  userId: number;
  /**
   * The commits the change brought to an existing branch, oldest first, when the change knows them (a commit
   * through the API brings its own): the push's consumers then need not ask git which commits they are.
   */
  commits?: readonly BranchCommitInfo[];
}

/** `refs` are the refs the change moved; empty when that is not known (an import replaces everything). */
export type RepositoryChangeListener = (projectId: number, refs: readonly RefChange[]) => Promise<void>;

export class RepositoryEvents {
  private readonly listeners: RepositoryChangeListener[] = [];

  onChange(listener: RepositoryChangeListener): void {
    this.listeners.push(listener);
  }

  async changed(db: Db, projectId: number, refs: readonly RefChange[] = []): Promise<void> {
    await db
      .updateTable('projects')
      .set((eb) => ({
        last_activity_at: new Date().toISOString(),
        repository_generation: eb('repository_generation', '+', 1),
      }))
      .where('id', '=', projectId)
      .execute();
    for (const listener of this.listeners) await listener(projectId, refs);
  }
}
