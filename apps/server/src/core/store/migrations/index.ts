// The ordered list of schema migrations. Add a file `NNN_name.ts` and list it here; never edit an applied one.
import type { Migration, MigrationProvider } from 'kysely/migration';
import * as m001 from './001_initial.js';
import * as m002 from './002_deploy_keys.js';
import * as m003 from './003_pipelines.js';
import * as m004 from './004_features.js';
import * as m005 from './005_remote_mirrors.js';
import * as m006 from './006_project_repository_storage_moves.js';
import * as m007 from './007_project_export_import.js';
import * as m008 from './008_project_repository_generation.js';
import * as m009 from './009_namespace_kind.js';
import * as m010 from './010_badges.js';
import * as m011 from './011_access_requests.js';
import * as m012 from './012_projects.js';
import * as m013 from './013_group_runners_token.js';
import * as m014 from './014_project_hooks.js';
import * as m015 from './015_project_actions.js';
import * as m016 from './016_group_ancestors.js';
import * as m017 from './017_issues_merge_requests.js';
import * as m018 from './018_project_settings.js';
import * as m019 from './019_user_profiles.js';
import * as m020 from './020_snippets.js';
import * as m021 from './021_epics.js';
import * as m022 from './022_labels_todos_notifications.js';
import * as m023 from './023_notes.js';
import * as m024 from './024_scim.js';
import * as m025 from './025_integrations.js';
import * as m026 from './026_appearance.js';
import * as m027 from './027_list_indexes.js';
import * as m028 from './028_gitlab_fields.js';
import * as m029 from './029_group_settings_members_expiry.js';
import * as m030 from './030_users_and_tokens_api.js';
import * as m031 from './031_merge_request_writes.js';
import * as m033 from './033_project_avatars.js';
import * as m035 from './035_merge_request_refresh.js';
import * as m037 from './037_allow_merge_on_skipped_pipeline.js';
import * as m038 from './038_pipelines_user_nullable.js';
import * as m040 from './040_project_hook_backoff.js';

const migrations: Record<string, Migration> = {
  '001_initial': m001,
  '002_deploy_keys': m002,
  '003_pipelines': m003,
  '004_features': m004,
  '005_remote_mirrors': m005,
  '006_project_repository_storage_moves': m006,
  '007_project_export_import': m007,
  '008_project_repository_generation': m008,
  '009_namespace_kind': m009,
  '010_badges': m010,
  '011_access_requests': m011,
  '012_projects': m012,
  '013_group_runners_token': m013,
  '014_project_hooks': m014,
  '015_project_actions': m015,
  '016_group_ancestors': m016,
  '017_issues_merge_requests': m017,
  '018_project_settings': m018,
  '019_user_profiles': m019,
  '020_snippets': m020,
  '021_epics': m021,
  '022_labels_todos_notifications': m022,
  '023_notes': m023,
  '024_scim': m024,
  '025_integrations': m025,
  '026_appearance': m026,
  '027_list_indexes': m027,
  '028_gitlab_fields': m028,
  '029_group_settings_members_expiry': m029,
  '030_users_and_tokens_api': m030,
  '031_merge_request_writes': m031,
  '033_project_avatars': m033,
  '035_merge_request_refresh': m035,
  '037_allow_merge_on_skipped_pipeline': m037,
  '038_pipelines_user_nullable': m038,
  '040_project_hook_backoff': m040,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
