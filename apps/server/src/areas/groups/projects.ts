// The projects of a group, read through the projects area: TODO wire to areas/projects/index.ts.
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import type { GroupDetails } from './present.js';
import type { GroupRecord } from './store.js';

export async function groupProjects(
  _context: ServerContext,
  _caller: Caller,
  _group: GroupRecord,
  _origin: string,
): Promise<Pick<GroupDetails, 'projects' | 'shared_projects'>> {
  return { projects: [], shared_projects: [] };
}
