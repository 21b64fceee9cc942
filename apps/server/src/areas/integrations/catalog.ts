// The integrations a project can set up (document 2, 4.16), one description per slug: its title, every
// parameter of its PUT (settings, which are required, which are secrets, defaults) and the event flags it
// takes, and what it sends when an event fires. Everything else in the area is generic code reading this
// table. The type of each description is tied to its PUT body in the spec: a parameter the spec adds and this
// table forgets does not compile.
import type { OperationId, RequestBody } from '../../core/http/types.js';

/** The event flags of an integration (GitLab's ProjectIntegrationBasic), columns of `integrations`. */
export const EVENT_FLAGS = [
  'commit_events',
  'push_events',
  'issues_events',
  'confidential_issues_events',
  'merge_requests_events',
  'tag_push_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'job_events',
  'comment_on_event_enabled',
] as const;
export type EventFlag = (typeof EVENT_FLAGS)[number];

/** One parameter of a slug's PUT. */
export type FieldSpec =
  /** A setting kept in `properties`; a secret is stored and used, never returned. */
  | { type: 'string'; required?: true; secret?: true; default?: string }
  | { type: 'boolean'; default: boolean }
  /** An event flag (a column); its default is GitLab's column default. */
  | { type: 'event' }
  /** team-chat-c's deprecated `notify_only_default_branch`: written onto `branches_to_be_notified`. */
  | { type: 'notifyOnlyDefaultBranch' };

/**
 * What an integration sends when an event it takes fires (from the job queue):
 * - `chat`: a message POSTed to its `webhook` on pushes, tag pushes and finished pipelines;
 * - `buildTrigger`: a build of `build_key` triggered on the build server at `buildserver_url` on pushes;
 * - `ciHook`: the push payload POSTed to the CI server at `ci_server_url` on pushes and tag pushes;
 * - `commitStatus`: the pipeline's status POSTed to the code host of `repository_url`;
 * - `email`: e-mails about pushes and tag pushes, written to the outbox under the data directory.
 * Integrations without one (issue trackers, the wiki link, services at fixed third-party hosts) only keep
 * their settings.
 */
export type Firing = 'chat' | 'buildTrigger' | 'ciHook' | 'commitStatus' | 'email';

type Slugged = {
  'commit-task-comments': 'CommitTaskComments';
  'source-commits-pm': 'SourceCommitsPm';
  'build-server-a': 'BuildServerA';
  'issue-tracker-a': 'IssueTrackerA';
  'custom-issue-tracker': 'CustomIssueTracker';
  'build-pipeline-ci': 'BuildPipelineCi';
  'group-chat-room': 'GroupChatRoom';
  'team-chat-a': 'TeamChatA';
  'team-chat-b': 'TeamChatB';
  'team-chat-c': 'TeamChatC';
  'ci-server-b': 'CiServerB';
  'emails-on-push': 'EmailsOnPush';
  'external-wiki': 'ExternalWiki';
  'team-inbox-a': 'TeamInboxA';
  'code-host-status': 'CodeHostStatus';
};
export type Slug = keyof Slugged;
/** The PUT operation of a slug (the `/services/` one; the `/integrations/` one takes the same body). */
export type UpdateOperation<S extends Slug> = `update${Slugged[S]}Integration` & OperationId;
/** The GET operations of every slug, both path families. */
export type GetOperation = `get${Slugged[Slug]}${'' | 'Project'}Integration` & OperationId;

export interface IntegrationKind<S extends Slug = Slug> {
  slug: S;
  title: string;
  /** Every parameter of the slug's PUT. */
  fields: { readonly [Name in keyof RequestBody<UpdateOperation<S>>]-?: FieldSpec };
  /** Event flags that are on although no parameter sets them (the events the integration exists for). */
  alwaysOn?: readonly EventFlag[];
  firing?: Firing;
  /** Higher tier only: on the free tier the slug does not exist (404), as GitLab CE has no such route. */
  premium?: true;
}

const BRANCHES_TO_BE_NOTIFIED: FieldSpec = { type: 'string', default: 'all' };
const EVENT: FieldSpec = { type: 'event' };

const issueTracker = {
  new_issue_url: { type: 'string', required: true },
  issues_url: { type: 'string', required: true },
  project_url: { type: 'string', required: true },
  description: { type: 'string' },
  title: { type: 'string' },
  push_events: EVENT,
} as const satisfies Record<string, FieldSpec>;

const teamChat = {
  // The incoming-webhook URL carries the chat's credentials: a secret.
  webhook: { type: 'string', required: true, secret: true },
  // GitLab's ChatNotification defaults.
  notify_only_broken_pipelines: { type: 'boolean', default: true },
  branches_to_be_notified: BRANCHES_TO_BE_NOTIFIED,
  push_events: EVENT,
  issues_events: EVENT,
  confidential_issues_events: EVENT,
  merge_requests_events: EVENT,
  tag_push_events: EVENT,
  note_events: EVENT,
  confidential_note_events: EVENT,
  pipeline_events: EVENT,
  wiki_page_events: EVENT,
} as const satisfies Record<string, FieldSpec>;

function kind<S extends Slug>(description: IntegrationKind<S>): IntegrationKind<S> {
  return description;
}

export const CATALOG: { readonly [S in Slug]: IntegrationKind<S> } = {
  'commit-task-comments': kind({
    slug: 'commit-task-comments',
    title: 'Commit task comments',
    fields: {
      api_key: { type: 'string', required: true, secret: true },
      restrict_to_branch: { type: 'string' },
      push_events: EVENT,
    },
  }),
  'source-commits-pm': kind({
    slug: 'source-commits-pm',
    title: 'Source commits PM',
    fields: {
      token: { type: 'string', required: true, secret: true },
      subdomain: { type: 'string' },
      push_events: EVENT,
    },
  }),
  'build-server-a': kind({
    slug: 'build-server-a',
    title: 'Build server A',
    fields: {
      buildserver_url: { type: 'string', required: true },
      build_key: { type: 'string', required: true },
      username: { type: 'string', required: true },
      password: { type: 'string', required: true, secret: true },
      push_events: EVENT,
    },
    firing: 'buildTrigger',
  }),
  'issue-tracker-a': kind({ slug: 'issue-tracker-a', title: 'Issue tracker A', fields: issueTracker }),
  'custom-issue-tracker': kind({
    slug: 'custom-issue-tracker',
    title: 'Custom issue tracker',
    fields: issueTracker,
  }),
  'build-pipeline-ci': kind({
    slug: 'build-pipeline-ci',
    title: 'Build pipeline CI',
    fields: {
      token: { type: 'string', required: true, secret: true },
      project_url: { type: 'string', required: true },
      enable_ssl_verification: { type: 'boolean', default: true },
      push_events: EVENT,
    },
  }),
  'group-chat-room': kind({
    slug: 'group-chat-room',
    title: 'Group chat room',
    fields: {
      token: { type: 'string', required: true, secret: true },
      subdomain: { type: 'string' },
      room: { type: 'string' },
      push_events: EVENT,
    },
  }),
  'team-chat-a': kind({ slug: 'team-chat-a', title: 'Team chat A', fields: teamChat, firing: 'chat' }),
  'team-chat-b': kind({ slug: 'team-chat-b', title: 'Team chat B', fields: teamChat, firing: 'chat' }),
  'team-chat-c': kind({
    slug: 'team-chat-c',
    title: 'Team chat C',
    fields: { ...teamChat, notify_only_default_branch: { type: 'notifyOnlyDefaultBranch' } },
    firing: 'chat',
  }),
  'ci-server-b': kind({
    slug: 'ci-server-b',
    title: 'CI server B',
    fields: {
      token: { type: 'string', required: true, secret: true },
      ci_server_url: { type: 'string', required: true },
      enable_ssl_verification: { type: 'boolean', default: true },
      push_events: EVENT,
      merge_requests_events: EVENT,
      tag_push_events: EVENT,
    },
    firing: 'ciHook',
  }),
  'emails-on-push': kind({
    slug: 'emails-on-push',
    title: 'Emails on push',
    fields: {
      recipients: { type: 'string', required: true },
      disable_diffs: { type: 'boolean', default: false },
      send_from_committer_email: { type: 'boolean', default: false },
      push_events: EVENT,
      tag_push_events: EVENT,
      branches_to_be_notified: BRANCHES_TO_BE_NOTIFIED,
    },
    firing: 'email',
  }),
  'external-wiki': kind({
    slug: 'external-wiki',
    title: 'External wiki',
    fields: { external_wiki_url: { type: 'string', required: true } },
  }),
  'team-inbox-a': kind({
    slug: 'team-inbox-a',
    title: 'Team inbox A',
    fields: { token: { type: 'string', required: true, secret: true }, push_events: EVENT },
  }),
  'code-host-status': kind({
    slug: 'code-host-status',
    title: 'Code host status',
    fields: {
      token: { type: 'string', required: true, secret: true },
      repository_url: { type: 'string', required: true },
      static_context: { type: 'boolean', default: false },
    },
    // It exists to report pipelines; no parameter turns that off (GitLab's GitHub integration).
    alwaysOn: ['pipeline_events'],
    firing: 'commitStatus',
    premium: true,
  }),
};

export const SLUGS = Object.keys(CATALOG) as Slug[];

/** GitLab's column defaults of the event flags an integration takes (pipelines and jobs start off). */
export const EVENT_DEFAULTS: Record<EventFlag, boolean> = {
  commit_events: true,
  push_events: true,
  issues_events: true,
  confidential_issues_events: true,
  merge_requests_events: true,
  tag_push_events: true,
  note_events: true,
  confidential_note_events: true,
  pipeline_events: false,
  wiki_page_events: true,
  job_events: false,
  comment_on_event_enabled: true,
};

/** The description of `slug` with its fields as plain entries (for the generic code). */
export function fieldsOf(slug: Slug): [string, FieldSpec][] {
  return Object.entries(CATALOG[slug].fields as Record<string, FieldSpec>);
}

export function isEventFlag(name: string): name is EventFlag {
  return (EVENT_FLAGS as readonly string[]).includes(name);
}
