// The fields that name a project in export status, import status and storage-move answers.
import type { Db } from '../store/database.js';
import { groupChain, type ProjectRow } from './access.js';

export interface ProjectIdentity {
  id: number;
  description: string | null;
  name: string;
  name_with_namespace: string;
  path: string;
  path_with_namespace: string;
  created_at: string;
}

/** `Acme / Platform / Infra` and `acme/platform/infra`, from the project's group chain. */
export async function projectIdentity(db: Db, project: ProjectRow): Promise<ProjectIdentity> {
  const chain = (await groupChain(db, project.namespace_id)).reverse();
  const namespacePath = chain.at(-1)?.full_path ?? '';
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: [...chain.map((group) => group.name), project.name].join(' / '),
    path: project.path,
    path_with_namespace: namespacePath ? `${namespacePath}/${project.path}` : project.path,
    created_at: project.created_at,
  };
}
