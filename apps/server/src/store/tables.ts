// Row types of the database tables, as Kysely sees them. These describe storage, not the API:
// the API's types come from the spec (@collab/spec/schema).
import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  name: string;
  email: string;
  state: string;
  is_admin: number;
  avatar_url: string | null;
  created_at: string;
}

export interface PersonalAccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** Hex SHA-256 of the token: the token itself is never stored. */
  token_sha256: string;
  /** JSON array of scope names (`api`, `read_repository`). */
  scopes: string;
  expires_at: string | null;
  revoked: number;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
  visibility: string;
  description: string;
  created_at: string;
}

export interface ProjectsTable {
  id: Generated<number>;
  name: string;
  path: string;
  namespace_id: number;
  visibility: string;
  description: string | null;
  default_branch: string;
  archived: number;
  repository_storage: string;
  creator_id: number;
  created_at: string;
  last_activity_at: string;
}

export interface MembersTable {
  id: Generated<number>;
  /** `Project` or `Group`. */
  source_type: string;
  source_id: number;
  user_id: number;
  access_level: number;
  created_at: string;
}

export interface ProjectGroupLinksTable {
  id: Generated<number>;
  project_id: number;
  group_id: number;
  group_access: number;
  expires_at: string | null;
}

export interface ProtectedBranchesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  code_owner_approval_required: number;
  created_at: string;
}

export interface ProtectedBranchAccessLevelsTable {
  id: Generated<number>;
  protected_branch_id: number;
  /** `push`, `merge` or `unprotect`. */
  action: string;
  access_level: number | null;
  user_id: number | null;
  group_id: number | null;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** JSON payload of the job. */
  payload: string;
  /** `queued`, `running`, `done` or `failed`. */
  state: string;
  run_at: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  personal_access_tokens: PersonalAccessTokensTable;
  groups: GroupsTable;
  projects: ProjectsTable;
  members: MembersTable;
  project_group_links: ProjectGroupLinksTable;
  protected_branches: ProtectedBranchesTable;
  protected_branch_access_levels: ProtectedBranchAccessLevelsTable;
  jobs: JobsTable;
}
