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
  /** When the account last changed (migration 019; set to created_at for older rows). */
  updated_at: Generated<string | null>;
  /** The public profile (migration 019): '' or null when not set, as GitLab. */
  bio: Generated<string>;
  location: Generated<string | null>;
  public_email: Generated<string | null>;
  skype: Generated<string>;
  linkedin: Generated<string>;
  twitter: Generated<string>;
  discord: Generated<string>;
  website_url: Generated<string>;
  organization: Generated<string>;
  job_title: Generated<string>;
  pronouns: Generated<string | null>;
  /** External users see only what they are members of, besides public projects (0 or 1). */
  external: Generated<number>;
  /** A private profile hides the account's dates and follower counts from others (0 or 1). */
  private_profile: Generated<number>;
  can_create_group: Generated<number>;
  /** How many personal projects the user may create (GitLab's default 100,000). */
  projects_limit: Generated<number>;
  /** When the e-mail address was confirmed (migration 030); null for an account made unconfirmed. */
  confirmed_at: Generated<string | null>;
  /** Null for people; `ghost` for the account that keeps deleted users' contributions (migration 030). */
  user_type: Generated<string | null>;
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
  /** Migration 030: older tokens take their user's creation time. */
  created_at: Generated<string | null>;
  /** This server does not record a token's use: null. */
  last_used_at: Generated<string | null>;
  description: Generated<string | null>;
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
  /** `group`, or `user` for a user's personal namespace (GitLab's namespaces.type Group / User). */
  kind: Generated<'group' | 'user'>;
  /** The runners registration token (a secret), made on first read by a group administrator. */
  runners_token: Generated<string | null>;
  /** The group settings (migration 029): booleans 0 or 1, the three-state ones null when not set. */
  share_with_group_lock: Generated<number>;
  require_two_factor_authentication: Generated<number>;
  two_factor_grace_period: Generated<number>;
  /** `noone`, `maintainer` or `developer`. */
  project_creation_level: Generated<string>;
  auto_devops_enabled: Generated<number | null>;
  /** `owner` or `maintainer`. */
  subgroup_creation_level: Generated<string>;
  emails_disabled: Generated<number | null>;
  mentions_disabled: Generated<number | null>;
  lfs_enabled: Generated<number>;
  request_access_enabled: Generated<number>;
  default_branch_protection: Generated<number>;
  /** The file name of the group's avatar (under `uploads/-/system/group/avatar/<id>/`), or null. */
  avatar: Generated<string | null>;
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
  /** Bumped after every change of the repository: other processes drop their cached reads of it. */
  repository_generation: number;
  /** When the project was marked for a delayed deletion (higher tiers; ISO timestamp), else null. */
  marked_for_deletion_at: Generated<string | null>;
  /** The repository_generation at which `project_languages` was last detected; null before the first time. */
  languages_generation: Generated<number | null>;
  issues_enabled: Generated<number>;
  merge_requests_enabled: Generated<number>;
  /* The settings of migration 018 (0/1 flags, GitLab's defaults). */
  wiki_enabled: Generated<number>;
  jobs_enabled: Generated<number>;
  snippets_enabled: Generated<number>;
  container_registry_enabled: Generated<number>;
  shared_runners_enabled: Generated<number>;
  public_jobs: Generated<number>;
  request_access_enabled: Generated<number>;
  only_allow_merge_if_pipeline_succeeds: Generated<number>;
  /** With only_allow_merge_if_pipeline_succeeds, a skipped head pipeline counts as successful (migration 037). */
  allow_merge_on_skipped_pipeline: Generated<number>;
  only_allow_merge_if_all_discussions_are_resolved: Generated<number>;
  remove_source_branch_after_merge: Generated<number>;
  resolve_outdated_diff_discussions: Generated<number>;
  autoclose_referenced_issues: Generated<number>;
  auto_devops_enabled: Generated<number>;
  packages_enabled: Generated<number>;
  lfs_enabled: Generated<number>;
  printing_merge_request_link_enabled: Generated<number>;
  emails_disabled: Generated<number>;
  merge_method: Generated<string>;
  auto_devops_deploy_strategy: Generated<string>;
  auto_cancel_pending_pipelines: Generated<string>;
  /** A JSON array of strings. */
  topics: Generated<string>;
  suggestion_commit_message: Generated<string | null>;
  ci_config_path: Generated<string | null>;
  build_timeout: Generated<number>;
  ci_default_git_depth: Generated<number | null>;
  /** The file name of the project's avatar (under `uploads/-/system/project/avatar/<id>/`), or null. */
  avatar: Generated<string | null>;
}

export interface MembersTable {
  id: Generated<number>;
  /** `Project` or `Group`. */
  source_type: string;
  source_id: number;
  user_id: number;
  access_level: number;
  created_at: string;
  /** The membership's last day (`YYYY-MM-DD`), or null (migration 029). */
  expires_at: Generated<string | null>;
  /** Who added the member through the API (null for fixtures and approvals). */
  created_by_id: Generated<number | null>;
}

/** A pending request to join a group or project; approving it makes a `members` row and removes it. */
export interface AccessRequestsTable {
  id: Generated<number>;
  /** `Project` or `Group`. */
  source_type: string;
  source_id: number;
  user_id: number;
  requested_at: string;
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
  /** Whether force pushes are allowed (GitLab's `allow_force_push`). */
  allow_force_push: Generated<number>;
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

export interface ProjectExportsTable {
  id: Generated<number>;
  project_id: number;
  /** `queued`, `started`, `finished` or `regeneration_in_progress` (`none` is the absence of a row). */
  status: string;
  /** Incremented by every export request; a job of an older generation stops. */
  generation: number;
  /** The downloadable archive, relative to the data directory. */
  file_path: string | null;
  description: string | null;
  upload_url: string | null;
  upload_http_method: string | null;
  /** The last build or upload failure, for operators (the API's export status has no error field). */
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectImportsTable {
  id: Generated<number>;
  project_id: number;
  /** `scheduled`, `started`, `finished` or `failed`. */
  status: string;
  correlation_id: string;
  import_error: string | null;
  /** The uploaded archive, relative to the data directory, until the import job has consumed it. */
  archive_path: string | null;
  /** JSON object of project fields that take precedence over the archive. */
  override_params: string;
  created_at: string;
  updated_at: string;
}

export interface ProjectImportFailuresTable {
  id: Generated<number>;
  project_id: number;
  exception_class: string;
  exception_message: string;
  source: string;
  relation_name: string;
  created_at: string;
}

/** A file uploaded to a project (`uploads/<project id>/<secret>/<filename>` under the data directory). */
export interface ProjectUploadsTable {
  id: Generated<number>;
  project_id: number;
  secret: string;
  filename: string;
  size: number;
  uploaded_by: number | null;
  created_at: string;
}

/** A group's single sign-on setting (GitLab's saml_provider): SCIM works only where it is enabled. */
export interface GroupSamlProvidersTable {
  group_id: number;
  enabled: number;
  /** The access level provisioned users get in the group (GitLab's default_membership_role). */
  default_membership_role: Generated<number>;
  created_at: string;
}

/** A group's SCIM token, as the hex SHA-256 of the token (the token itself is never stored). */
export interface GroupScimTokensTable {
  group_id: number;
  token_sha256: string;
  created_at: string;
}

/** A user's SSO identity in a group, provisioned by SCIM: `extern_uid` is the identity provider's ID. */
export interface ScimIdentitiesTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
  extern_uid: string;
  created_at: string;
  updated_at: string;
}

export interface Database {
  appearance: AppearanceTable;
  project_uploads: ProjectUploadsTable;
  users: UsersTable;
  personal_access_tokens: PersonalAccessTokensTable;
  groups: GroupsTable;
  projects: ProjectsTable;
  members: MembersTable;
  access_requests: AccessRequestsTable;
  project_group_links: ProjectGroupLinksTable;
  protected_branches: ProtectedBranchesTable;
  protected_branch_access_levels: ProtectedBranchAccessLevelsTable;
  jobs: JobsTable;
  project_exports: ProjectExportsTable;
  project_imports: ProjectImportsTable;
  project_import_failures: ProjectImportFailuresTable;
  remote_mirrors: RemoteMirrorsTable;
  project_repository_storage_moves: ProjectRepositoryStorageMovesTable;
  deploy_keys: DeployKeysTable;
  deploy_keys_projects: DeployKeysProjectsTable;
  pipelines: PipelinesTable;
  pipeline_jobs: PipelineJobsTable;
  pipeline_variables: PipelineVariablesTable;
  features: FeaturesTable;
  feature_gates: FeatureGatesTable;
  badges: BadgesTable;
  project_hooks: ProjectHooksTable;
  project_hook_deliveries: ProjectHookDeliveriesTable;
  project_stars: ProjectStarsTable;
  custom_attributes: CustomAttributesTable;
  project_languages: ProjectLanguagesTable;
  group_ancestors: GroupAncestorsTable;
  internal_ids: InternalIdsTable;
  issues: IssuesTable;
  merge_requests: MergeRequestsTable;
  issuable_labels: IssuableLabelsTable;
  issuable_users: IssuableUsersTable;
  labels: LabelsTable;
  label_subscriptions: LabelSubscriptionsTable;
  todos: TodosTable;
  notification_settings: NotificationSettingsTable;
  group_internal_ids: GroupInternalIdsTable;
  epics: EpicsTable;
  award_emoji: AwardEmojiTable;
  notes: NotesTable;
  snippets: SnippetsTable;
  snippet_files: SnippetFilesTable;
  integrations: IntegrationsTable;
  group_saml_providers: GroupSamlProvidersTable;
  group_scim_tokens: GroupScimTokensTable;
  scim_identities: ScimIdentitiesTable;
}

/** Each group's ancestors and the group itself (depth 0), kept by a trigger on groups (migration 016). */
export interface GroupAncestorsTable {
  group_id: number;
  ancestor_id: number;
  depth: number;
}

export interface RemoteMirrorsTable {
  id: Generated<number>;
  project_id: number;
  /** With its credentials: git needs them. Responses and errors always mask them. */
  url: string;
  enabled: number;
  only_protected_branches: number;
  keep_divergent_refs: number;
  /** `none`, `started`, `finished` or `failed`. */
  update_status: string;
  last_error: string | null;
  last_update_at: string | null;
  last_update_started_at: string | null;
  last_successful_update_at: string | null;
  created_at: string;
}

export interface ProjectRepositoryStorageMovesTable {
  id: Generated<number>;
  project_id: number;
  /** `scheduled`, `started`, `replicated`, `finished`, `failed` or `cleanup_failed`. */
  state: string;
  source_storage_name: string;
  destination_storage_name: string;
  created_at: string;
  updated_at: string;
  error: string | null;
}

export interface DeployKeysTable {
  id: Generated<number>;
  title: string;
  /** The public key line as returned by the API: type, base64 blob, comment. */
  key: string;
  /** `SHA256:<base64>` of the key blob; unique across the instance. */
  fingerprint_sha256: string;
  created_at: string;
}

export interface DeployKeysProjectsTable {
  project_id: number;
  deploy_key_id: number;
  can_push: number;
  created_at: string;
}

export interface PipelinesTable {
  id: Generated<number>;
  project_id: number;
  /** The pipeline's number within its project, 1, 2, 3 … (GitLab's `iid`). */
  iid: number;
  sha: string;
  before_sha: string;
  ref: string;
  tag: number;
  /** A PipelineStatus value of the spec. */
  status: string;
  /** What created the pipeline (`api`). */
  source: string;
  /** The CI configuration errors, null when the configuration is valid. */
  yaml_errors: string | null;
  /** Null once a hard deletion removed the user who triggered it (migration 038). */
  user_id: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  committed_at: string | null;
  /** Seconds. */
  duration: number | null;
  /** A decimal text such as `85.5`. */
  coverage: string | null;
}

export interface PipelineJobsTable {
  id: Generated<number>;
  pipeline_id: number;
  name: string;
  stage: string;
  /** The position of `stage` in the configuration's `stages`: stages run in this order. */
  stage_index: number;
  /** `created`, `running`, `success`, `failed`, `canceled`, `skipped` or `manual`. */
  status: string;
  /** The declared outcome: `success`, `failed`, `skipped` or `manual`. */
  outcome: string;
  duration_seconds: number;
  allow_failure: number;
  coverage: number | null;
  /** JSON array of the script lines: recorded, never executed. */
  script: string;
  /** JSON array of the declared test suites, null when the job declares none. */
  test_report: string | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PipelineVariablesTable {
  id: Generated<number>;
  pipeline_id: number;
  key: string;
  value: string;
  /** `env_var` or `file`. */
  variable_type: string;
}

export interface FeaturesTable {
  name: string;
  created_at: string;
  updated_at: string;
}

export interface FeatureGatesTable {
  id: Generated<number>;
  feature_name: string;
  /** `boolean`, `percentage_of_time`, `percentage_of_actors`, `actors` or `groups`. */
  key: string;
  /** `true`, a percentage, a flipper id (`User:1`) or a feature-group name. */
  value: string;
}

/** A webhook of a project. Event flags are 0 or 1. */
export interface ProjectHooksTable {
  id: Generated<number>;
  project_id: number;
  url: string;
  /** The secret sent with each delivery: never part of a response. */
  token: string | null;
  push_events: number;
  tag_push_events: number;
  issues_events: number;
  confidential_issues_events: number;
  merge_requests_events: number;
  note_events: number;
  confidential_note_events: number;
  job_events: number;
  pipeline_events: number;
  wiki_page_events: number;
  /** Empty for every branch; else a branch name or wildcard. */
  push_events_branch_filter: string;
  enable_ssl_verification: number;
  created_at: string;
  /** Failed attempts since the last success (GitLab's recent_failures). */
  recent_failures: Generated<number>;
  /** While a hook that keeps failing is backed off: when it may be tried again (ISO), else null. */
  disabled_until: string | null;
}

/** One event sent to one hook, with its attempts so far. */
export interface ProjectHookDeliveriesTable {
  id: Generated<number>;
  hook_id: number;
  /** `Push Hook`, `Tag Push Hook` or `Pipeline Hook`. */
  event: string;
  event_uuid: string;
  /** The JSON body. */
  payload: string;
  /** `pending`, `delivered` or `failed`. */
  state: string;
  attempts: number;
  response_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** A badge of a project or of a group: exactly one of project_id and group_id is set. */
export interface BadgesTable {
  id: Generated<number>;
  project_id: number | null;
  group_id: number | null;
  name: string | null;
  /** As given, with their placeholders (`%{project_path}` …): replaced when presented. */
  link_url: string;
  image_url: string;
  created_at: string;
  updated_at: string;
}

/** A user's star on a project (GitLab's users_star_projects). */
export interface ProjectStarsTable {
  id: Generated<number>;
  user_id: number;
  project_id: number;
  created_at: string;
}

/** An administrator's key/value attribute of a project, group or user. */
export interface CustomAttributesTable {
  id: Generated<number>;
  /** `Project`, `Group` or `User`. */
  subject_type: string;
  subject_id: number;
  key: string;
  value: string;
  created_at: string;
  updated_at: string;
}

/** One language of a project's repository and its share in percent (2 decimals). */
export interface ProjectLanguagesTable {
  project_id: number;
  name: string;
  share: number;
}

/** The last internal ID (`iid`) given per project and kind (`issues`, `merge_requests`). */
export interface InternalIdsTable {
  project_id: number;
  usage: string;
  last_value: number;
}

/** A project issue (GitLab v4). */
export interface IssuesTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  /** `opened` or `closed`. */
  state: string;
  author_id: number;
  confidential: number;
  /** Null until locked or unlocked (GitLab's tri-state). */
  discussion_locked: number | null;
  /** `YYYY-MM-DD`. */
  due_date: string | null;
  closed_at: string | null;
  closed_by_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A merge request of a project (its target project), made by the fixtures. */
export interface MergeRequestsTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  /** `opened`, `closed`, `locked` or `merged`. */
  state: string;
  author_id: number;
  source_project_id: number;
  source_branch: string;
  target_branch: string;
  sha: string | null;
  merge_commit_sha: string | null;
  merge_status: string;
  merged_by_id: number | null;
  merged_at: string | null;
  closed_by_id: number | null;
  closed_at: string | null;
  squash: number;
  force_remove_source_branch: number;
  merge_when_pipeline_succeeds: number;
  discussion_locked: number | null;
  created_at: string;
  updated_at: string;
  /** The merger's `should_remove_source_branch` (null: not given; migration 031). */
  should_remove_source_branch: Generated<number | null>;
  /** The commit a squashing merge made (migration 031). */
  squash_commit_sha: Generated<string | null>;
  /** The diff's base (merge base) and start (target head) as last refreshed; its head is `sha` (migration 035). */
  diff_base_sha: Generated<string | null>;
  diff_start_sha: Generated<string | null>;
  /** The number of changed files of that diff (migration 035). */
  changes_count: Generated<number | null>;
  /** When the merge lock (`state` = `locked`) was taken (migration 035). */
  merge_locked_at: Generated<string | null>;
  /** Who set "merge when the pipeline succeeds", and its merge parameters as JSON (migration 035). */
  merge_user_id: Generated<number | null>;
  merge_params: Generated<string | null>;
  /** Why the last automatic merge failed or was cancelled (migration 035). */
  merge_error: Generated<string | null>;
}

/** The last internal ID (`iid`) given per group and kind (`epics`), migration 021. */
export interface GroupInternalIdsTable {
  group_id: number;
  usage: string;
  last_value: number;
}

/** An epic of a group (higher tier, migration 021). Dates are `YYYY-MM-DD`. */
export interface EpicsTable {
  id: Generated<number>;
  group_id: number;
  iid: number;
  parent_id: number | null;
  title: string;
  description: string | null;
  /** `opened` or `closed`. */
  state: string;
  confidential: number;
  author_id: number;
  start_date_is_fixed: number;
  start_date_fixed: string | null;
  /** The earliest start date of the child epics. */
  start_date_inherited: string | null;
  /** The effective start date: the fixed one when `start_date_is_fixed`, else the inherited one. */
  start_date: string | null;
  due_date_is_fixed: number;
  due_date_fixed: string | null;
  /** The latest due date of the child epics. */
  due_date_inherited: string | null;
  /** The effective due date: the fixed one when `due_date_is_fixed`, else the inherited one. */
  end_date: string | null;
  closed_at: string | null;
  closed_by_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A user's reaction (emoji name) to an object (`awardable_type` `Epic`, `Issue` …), migration 021. */
export interface AwardEmojiTable {
  id: Generated<number>;
  name: string;
  user_id: number;
  awardable_type: string;
  awardable_id: number;
  created_at: string;
  updated_at: string;
}

/** A label name on an issue or merge request (`issuable_type` `Issue` or `MergeRequest`). */
export interface IssuableLabelsTable {
  issuable_type: string;
  issuable_id: number;
  name: string;
}

/** A user attached to an issue or merge request as `assignee` or `reviewer`, in `position` order. */
export interface IssuableUsersTable {
  issuable_type: string;
  issuable_id: number;
  role: string;
  user_id: number;
  position: number;
}

/** A personal snippet (`project_id` null) or a project snippet (migration 020). */
export interface SnippetsTable {
  id: Generated<number>;
  project_id: number | null;
  author_id: number;
  title: string;
  description: string | null;
  /** `private`, `internal` or `public`. */
  visibility: string;
  expires_at: string | null;
  /** The creating request's User-Agent and IP address (the administrators' user-agent detail). */
  user_agent: Generated<string>;
  ip_address: Generated<string>;
  akismet_submitted: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** A file of a snippet; the first by path gives the snippet's `file_name` and raw content. */
export interface SnippetFilesTable {
  snippet_id: number;
  path: string;
  content: string;
}

/** A label of a group (or of a project): exactly one of group_id and project_id is set (migration 022). */
export interface LabelsTable {
  id: Generated<number>;
  group_id: number | null;
  project_id: number | null;
  title: string;
  /** `#RRGGBB`. */
  color: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** A user's subscription to a label. */
export interface LabelSubscriptionsTable {
  label_id: number;
  user_id: number;
  created_at: string;
}

/** A user's to-do item about a target object (`Issue`, `MergeRequest`, `Epic` …). */
export interface TodosTable {
  id: Generated<number>;
  user_id: number;
  author_id: number;
  project_id: number | null;
  group_id: number | null;
  target_type: string;
  target_id: number;
  /** GitLab's action name (`assigned`, `mentioned` …). */
  action: string;
  body: string;
  note_id: number | null;
  /** `pending` or `done`. */
  state: string;
  created_at: string;
  updated_at: string;
}

/** A user's notification settings: `Global` (source_id 0), or for one `Group` or `Project`. */
export interface NotificationSettingsTable {
  user_id: number;
  source_type: string;
  source_id: number;
  level: string;
  /** JSON object of custom event switches. */
  events: string;
  /** Global row only; null means the primary e-mail. */
  notification_email: string | null;
  created_at: string;
  updated_at: string;
}

/** A note on an issue, merge request, project snippet or epic (migration 023). */
export interface NotesTable {
  id: Generated<number>;
  /** `Issue`, `MergeRequest`, `Snippet` or `Epic`. */
  noteable_type: string;
  noteable_id: number;
  /** The object's project (null for an epic). */
  project_id: number | null;
  /** The epic's group (null otherwise). */
  group_id: number | null;
  author_id: number;
  body: string;
  /** 1 for notes the server writes about changes to the object. */
  system: Generated<number>;
  /** 1 for internal notes (Reporters and above read them). */
  confidential: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** The instance's appearance (migration 026): one row, id 1, once it was changed. */
export interface AppearanceTable {
  id: number;
  title: Generated<string>;
  description: Generated<string>;
  /** File names of the stored images; null when none. */
  logo: string | null;
  header_logo: string | null;
  favicon: string | null;
  new_project_guidelines: Generated<string>;
  profile_image_guidelines: Generated<string>;
  header_message: Generated<string>;
  footer_message: Generated<string>;
  message_background_color: Generated<string>;
  message_font_color: Generated<string>;
  /** 0 or 1. */
  email_header_and_footer_enabled: Generated<number>;
  updated_at: string;
}

/** A project integration (migration 025): its slug's settings as JSON, its event flags as columns (0 or 1). */
export interface IntegrationsTable {
  id: Generated<number>;
  project_id: number;
  slug: string;
  active: Generated<number>;
  /** The slug's settings, secrets included: a JSON object (areas/integrations/catalog.ts reads it). */
  properties: Generated<string>;
  push_events: Generated<number>;
  issues_events: Generated<number>;
  confidential_issues_events: Generated<number>;
  merge_requests_events: Generated<number>;
  tag_push_events: Generated<number>;
  note_events: Generated<number>;
  confidential_note_events: Generated<number>;
  pipeline_events: Generated<number>;
  wiki_page_events: Generated<number>;
  job_events: Generated<number>;
  commit_events: Generated<number>;
  comment_on_event_enabled: Generated<number>;
  created_at: string;
  updated_at: string;
}
