// The git repository of a project.
import type { ServerContext } from '../context.js';
import { GitRepository } from '../git/repository.js';
import type { ProjectRow } from './access.js';

export function repositoryOf(
  context: ServerContext,
  project: Pick<ProjectRow, 'id' | 'repository_storage'>,
): GitRepository {
  return new GitRepository(context.storages.pathFor(project.repository_storage, project.id));
}
