// The git repository of a project.

import type { ProjectRow } from '../access/access.js';
import type { ServerContext } from '../context.js';
import { repositoryReadCache } from './readCache.js';
import { GitRepository } from './repository.js';

export function repositoryOf(
  context: ServerContext,
  project: Pick<ProjectRow, 'id' | 'repository_storage' | 'repository_generation'>,
): GitRepository {
  const path = context.storages.pathFor(project.repository_storage, project.id);
  // Another server process on the same data directory may have changed the repository: the project row
  // (read after that change) carries a newer generation, and the cached reads of the repository go.
  repositoryReadCache.noteGeneration(path, project.repository_generation);
  return new GitRepository(path);
}
