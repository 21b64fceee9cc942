// The fixtures file: objects the API cannot create (users and their tokens, groups, projects with their
// repositories …), as JSON. Kept apart from loading them, so that reading it loads no database code (the
// primary of several workers only prints the tokens).
import { readFile } from 'node:fs/promises';
import type { InstanceFixture } from '../instance.js';

export interface FixtureMember {
  username: string;
  access_level: number;
}

/**
 * An active project integration (migration 025): its slug, its settings as the slug's PUT takes them (secrets
 * included) and the event flags that are on (left out: off).
 */
export interface FixtureIntegration {
  slug: string;
  properties: Record<string, string | boolean>;
  push_events?: boolean;
  tag_push_events?: boolean;
  merge_requests_events?: boolean;
  pipeline_events?: boolean;
}

/** A project hook: its URL, secret token, event flags and push branch filter (GitLab's hook attributes). */
export interface FixtureHook {
  url: string;
  token?: string;
  push_events?: boolean;
  tag_push_events?: boolean;
  issues_events?: boolean;
  confidential_issues_events?: boolean;
  merge_requests_events?: boolean;
  note_events?: boolean;
  confidential_note_events?: boolean;
  job_events?: boolean;
  pipeline_events?: boolean;
  wiki_page_events?: boolean;
  /** A branch name or wildcard; push events of other branches are not sent. Empty or absent: all. */
  push_events_branch_filter?: string;
  /** Default true. */
  enable_ssl_verification?: boolean;
}

/** A user's public profile and account settings, as the users API shows them. */
export interface FixtureUserProfile {
  bio?: string;
  location?: string;
  public_email?: string;
  skype?: string;
  linkedin?: string;
  twitter?: string;
  discord?: string;
  website_url?: string;
  organization?: string;
  job_title?: string;
  pronouns?: string;
  external?: boolean;
  private_profile?: boolean;
  can_create_group?: boolean;
  projects_limit?: number;
}

/** A note on an issue or merge request (the notes area); its author by username. */
export interface FixtureNote {
  body: string;
  author: string;
  /** An internal note: only Reporters and above read it. */
  internal?: boolean;
  /** How many days before the fixtures are loaded it was written (default 0). */
  created_days_ago?: number;
}

/** An issue of a project (GitLab's issue attributes); users by username. */
export interface FixtureIssue {
  title: string;
  description?: string;
  author: string;
  assignees?: string[];
  labels?: string[];
  confidential?: boolean;
  /** `YYYY-MM-DD`. */
  due_date?: string;
  /** Who closed it: the issue is closed when given. */
  closed_by?: string;
  /** How many days before the fixtures are loaded it was created (default 0), so lists have an order. */
  created_days_ago?: number;
  /** Its notes (a closed issue also gets the `closed` system note the server writes). */
  notes?: FixtureNote[];
}

/** An epic of a group (higher tier), numbered 1, 2, 3 … (iid) in file order; users by username. */
export interface FixtureEpic {
  title: string;
  description?: string;
  author: string;
  labels?: string[];
  confidential?: boolean;
  /** The iid of an earlier epic of the same group: this epic is its child. */
  parent?: number;
  /** `YYYY-MM-DD`: fixed dates (the epic's `*_is_fixed`). */
  start_date_fixed?: string;
  due_date_fixed?: string;
  /** Who closed it: the epic is closed when given. */
  closed_by?: string;
  created_days_ago?: number;
  /** Reactions: usernames by emoji name (`thumbsup` and `thumbsdown` are the votes). */
  award_emoji?: Record<string, string[]>;
}

/** A merge request into a project; its source branch should exist in the project's repository. */
export interface FixtureMergeRequest {
  title: string;
  description?: string;
  author: string;
  source_branch: string;
  /** Default: the project's default branch. */
  target_branch?: string;
  /** `opened` (default), `closed`, `locked` or `merged`. */
  state?: 'opened' | 'closed' | 'locked' | 'merged';
  /** Who merged or closed it (merged and closed ones; default the author). */
  state_changed_by?: string;
  assignees?: string[];
  reviewers?: string[];
  labels?: string[];
  /** GitLab's merge_status (default `can_be_merged`). */
  merge_status?: 'unchecked' | 'can_be_merged' | 'cannot_be_merged';
  squash?: boolean;
  created_days_ago?: number;
  notes?: FixtureNote[];
}

/** A group's single sign-on setting and SCIM token (GitLab's SAML provider and SCIM token). */
export interface FixtureGroupSaml {
  /** Single sign-on on: the SCIM API serves the group. */
  enabled: boolean;
  /** The access level of provisioned members (default 10, Guest). */
  default_membership_role?: number;
  /** The group's SCIM token (`Authorization: Bearer`); stored hashed. */
  scim_token?: string;
}

/** A personal snippet, or a snippet of the project it is listed under; users by username. */
export interface FixtureSnippet {
  title: string;
  description?: string;
  author: string;
  visibility: 'private' | 'internal' | 'public';
  /** Its files: path → content (the first path in order names the snippet). */
  files: Record<string, string>;
  created_days_ago?: number;
}

export interface Fixtures {
  /** Instance settings: the tier and limits (core/instance.ts); the defaults without it. */
  instance?: InstanceFixture;
  users: {
    username: string;
    name: string;
    email: string;
    admin?: boolean;
    state?: string;
    /** The profile and account settings the users API shows (GitLab's defaults without them). */
    profile?: FixtureUserProfile;
    tokens: { name: string; token: string; scopes: string[]; expires_at?: string; revoked?: boolean }[];
  }[];
  groups: {
    path: string;
    name: string;
    /** Full path of the parent group. */
    parent?: string;
    visibility: 'private' | 'internal' | 'public';
    description?: string;
    members?: FixtureMember[];
    /** Custom attributes (key → value), which administrators read and filter by. */
    custom_attributes?: Record<string, string>;
    /** `user` for a user's personal namespace (path: the username; the user should be its owner member). */
    kind?: 'group' | 'user';
    /** Epics of the group (higher tier). */
    epics?: FixtureEpic[];
    /** Labels of the group (issues and merge requests carry label names; `color` as `#RRGGBB`). */
    labels?: { name: string; color: string; description?: string }[];
    /** Group single sign-on and SCIM provisioning (the scim area). */
    saml?: FixtureGroupSaml;
    /** Who may create projects in the group (GitLab's default: `developer`). */
    project_creation_level?: 'noone' | 'maintainer' | 'developer';
    /** Who may create subgroups (GitLab's default: `maintainer`). */
    subgroup_creation_level?: 'owner' | 'maintainer';
    /** Whether users may ask to join the group (GitLab's default: true). */
    request_access_enabled?: boolean;
  }[];
  /** Personal snippets (of no project). */
  snippets?: FixtureSnippet[];
  /** To-do items of users about issues and merge requests of the projects, made after everything else. */
  todos?: FixtureTodo[];
  projects: {
    /** Full path of the group the project lives in. */
    namespace: string;
    path: string;
    name: string;
    visibility: 'private' | 'internal' | 'public';
    description?: string;
    default_branch?: string;
    creator: string;
    members?: FixtureMember[];
    shared_with?: { group: string; group_access: number }[];
    protected_branches?: { name: string; push_access_level: number; merge_access_level: number }[];
    /** Usernames of the users who starred the project, in starring order. */
    starred_by?: string[];
    /** Custom attributes (key → value), which administrators read and filter by. */
    custom_attributes?: Record<string, string>;
    /** The issues and merge requests features (default on). */
    issues_enabled?: boolean;
    merge_requests_enabled?: boolean;
    /** Webhooks of the project (the API only reads them); flags left out are off. */
    hooks?: FixtureHook[];
    /** Active integrations of the project, one per slug. */
    integrations?: FixtureIntegration[];
    /** Issues of the project, numbered 1, 2, 3 … (iid) in file order. */
    issues?: FixtureIssue[];
    /** Merge requests into the project, numbered 1, 2, 3 … (iid) in file order. */
    merge_requests?: FixtureMergeRequest[];
    /** Snippets of the project. */
    snippets?: FixtureSnippet[];
    repository?: {
      /** Files committed to the default branch, one commit each, in order. */
      files: Record<string, string>;
      /**
       * Branches made from the default branch's head, or from the revision `from` names (`main~1`: a branch
       * merged into the default branch, which a branch at its head is not, as in GitLab); `files` adds commits
       * of their own (so they are unmerged).
       */
      branches?: { name: string; from?: string; files?: Record<string, string> }[];
    };
  }[];
}

export async function readFixturesFile(path: string): Promise<Fixtures> {
  return JSON.parse(await readFile(path, 'utf8')) as Fixtures;
}

/** A user's to-do about an issue or merge request (by project path and iid). */
export interface FixtureTodo {
  user: string;
  author: string;
  /** GitLab's action name: `assigned`, `mentioned`, `directly_addressed`, `marked` … */
  action: string;
  /** Full path of the project. */
  project: string;
  target: 'issue' | 'merge_request';
  iid: number;
  /** `pending` (default) or `done`. */
  state?: 'pending' | 'done';
  /** The text; the target's title when left out. */
  body?: string;
}
