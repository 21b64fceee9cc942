// The fixtures file: objects the API cannot create (users and their tokens, groups, projects with their
// repositories …), as JSON. Kept apart from loading them, so that reading it loads no database code (the
// primary of several workers only prints the tokens).
import { readFile } from 'node:fs/promises';
import type { InstanceFixture } from '../instance.js';

export interface FixtureMember {
  username: string;
  access_level: number;
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

export interface Fixtures {
  /** Instance settings: the tier and limits (core/instance.ts); the defaults without it. */
  instance?: InstanceFixture;
  users: {
    username: string;
    name: string;
    email: string;
    admin?: boolean;
    state?: string;
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
  }[];
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
    repository?: {
      /** Files committed to the default branch, one commit each, in order. */
      files: Record<string, string>;
      /** Branches made from the default branch; `files` adds commits of their own (so they are unmerged). */
      branches?: { name: string; files?: Record<string, string> }[];
    };
  }[];
}

export async function readFixturesFile(path: string): Promise<Fixtures> {
  return JSON.parse(await readFile(path, 'utf8')) as Fixtures;
}
