// Storage statistics of groups (administrators, `statistics=true`): as GitLab's `with_statistics`, the sums
// over the group's own projects (not its subgroups'). The repository size is the bare repository's size on
// disk, as GitLab's project statistics measure it; wikis, LFS objects, job artifacts and packages do not
// exist here and count 0. A repository's size is kept until its generation changes.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerContext } from '../../core/context.js';
import type { GroupStatistics } from './present.js';
import { projectsInGroups } from './store.js';

const sizes = new Map<string, { generation: number; bytes: number }>();

/** The bytes of the files under `path` (0 when it does not exist). */
async function directorySize(path: string): Promise<number> {
  let total = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) total += await directorySize(child);
    else if (entry.isFile()) total += (await stat(child)).size;
  }
  return total;
}

async function repositorySize(
  context: ServerContext,
  project: { id: number; repository_storage: string; repository_generation: number },
): Promise<number> {
  const path = context.storages.pathFor(project.repository_storage, project.id);
  const known = sizes.get(path);
  if (known?.generation === project.repository_generation) return known.bytes;
  const bytes = await directorySize(path);
  sizes.set(path, { generation: project.repository_generation, bytes });
  return bytes;
}

/** The statistics of each group of `groupIds` (one query for their projects). */
export async function groupStatisticsOf(
  context: ServerContext,
  groupIds: readonly number[],
): Promise<Map<number, GroupStatistics>> {
  const statistics = new Map<number, GroupStatistics>();
  for (const id of groupIds)
    statistics.set(id, {
      storage_size: 0,
      repository_size: 0,
      wiki_size: 0,
      lfs_objects_size: 0,
      job_artifacts_size: 0,
      packages_size: 0,
    });
  for (const project of await projectsInGroups(context.db, groupIds)) {
    const group = statistics.get(project.namespace_id);
    if (!group) continue;
    const bytes = await repositorySize(context, project);
    group.repository_size += bytes;
    group.storage_size += bytes;
  }
  return statistics;
}
