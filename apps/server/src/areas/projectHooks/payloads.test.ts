// The payload builders and the choice of hooks a push goes to (flags and GitLab's wildcard branch filter).
import { describe, expect, it } from 'vitest';
import type { BranchCommitInfo } from '../../core/git/repository.js';
import { ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { branchFilterMatches, hooksForPush } from './events.js';
import { buildPipelinePayload, buildPushPayload, hookTime } from './payloads.js';
import type { HookPipeline, HookPipelineJob, HookProject, HookRow } from './store.js';

const project: HookProject = {
  id: 7,
  name: 'Website',
  path: 'website',
  description: 'A site',
  default_branch: 'main',
  visibility: 'internal',
  namespace_name: 'Acme',
  namespace_full_path: 'acme',
  repository_storage: 'default',
  repository_generation: 0,
  avatar: null,
  ci_config_path: null,
};
const user = { id: 3, name: 'Mona Maintainer', username: 'maintainer', avatar_url: null };
const commit: BranchCommitInfo = {
  id: 'b'.repeat(40),
  short_id: 'bbbbbbbb',
  title: 'Fix it',
  message: 'Fix it\n\nReally.',
  author_name: 'Ann',
  author_email: 'ann@example.com',
  authored_date: '2026-01-12T09:15:00.000+01:00',
  committer_name: 'Ann',
  committer_email: 'ann@example.com',
  committed_date: '2026-01-12T09:15:00.000+01:00',
  parent_ids: ['a'.repeat(40)],
};

function hook(id: number, fields: Partial<HookRow>): HookRow {
  return {
    id,
    project_id: 7,
    url: 'http://x.example',
    token: null,
    push_events: 0,
    tag_push_events: 0,
    issues_events: 0,
    confidential_issues_events: 0,
    merge_requests_events: 0,
    note_events: 0,
    confidential_note_events: 0,
    job_events: 0,
    pipeline_events: 0,
    wiki_page_events: 0,
    push_events_branch_filter: '',
    enable_ssl_verification: 1,
    created_at: '2026-01-12T09:15:00.000Z',
    recent_failures: 0,
    disabled_until: null,
    ...fields,
  };
}

describe('branch filter (GitLab wildcard strategy)', () => {
  it('takes every branch when empty, else the exact name or a wildcard over the whole name', () => {
    expect(branchFilterMatches('', 'anything/at/all')).toBe(true);
    expect(branchFilterMatches('main', 'main')).toBe(true);
    expect(branchFilterMatches('main', 'main2')).toBe(false);
    expect(branchFilterMatches('main', 'xmain')).toBe(false);
    expect(branchFilterMatches('release/*', 'release/1.0')).toBe(true);
    expect(branchFilterMatches('release/*', 'release/1.0/hotfix')).toBe(true);
    expect(branchFilterMatches('release/*', 'prerelease/1.0')).toBe(false);
    expect(branchFilterMatches('*-stable', '16-stable')).toBe(true);
    expect(branchFilterMatches('*-stable', '16-stable-x')).toBe(false);
    // Regex characters are literal.
    expect(branchFilterMatches('v1.*', 'v1.2')).toBe(true);
    expect(branchFilterMatches('v1.*', 'v1x2')).toBe(false);
  });

  it('sends branch pushes to push hooks whose filter matches and tag pushes to tag push hooks', () => {
    const hooks = [
      hook(1, { push_events: 1 }),
      hook(2, { push_events: 1, push_events_branch_filter: 'release/*' }),
      hook(3, { tag_push_events: 1, push_events_branch_filter: 'release/*' }),
      hook(4, { pipeline_events: 1 }),
    ];
    const ids = (ref: string) => hooksForPush(hooks, ref).map((h) => h.id);
    expect(ids('refs/heads/main')).toEqual([1]);
    expect(ids('refs/heads/release/2.0')).toEqual([1, 2]);
    // The branch filter does not apply to tags (as GitLab).
    expect(ids('refs/tags/v1')).toEqual([3]);
    expect(ids('refs/notes/x')).toEqual([]);
  });
});

describe('push payload', () => {
  it('has GitLab push hook data', () => {
    const payload = buildPushPayload({
      baseUrl: 'http://collab.test:3000',
      project,
      user,
      change: { ref: 'refs/heads/main', before: 'a'.repeat(40), after: commit.id, userId: 3 },
      commits: [commit],
      totalCommits: 25,
    });
    expect(payload).toEqual({
      object_kind: 'push',
      event_name: 'push',
      before: 'a'.repeat(40),
      after: commit.id,
      ref: 'refs/heads/main',
      checkout_sha: commit.id,
      message: null,
      user_id: 3,
      user_name: 'Mona Maintainer',
      user_username: 'maintainer',
      user_email: '',
      user_avatar: null,
      project_id: 7,
      project: {
        id: 7,
        name: 'Website',
        description: 'A site',
        web_url: 'http://collab.test:3000/acme/website',
        avatar_url: null,
        git_ssh_url: 'git@collab.test:acme/website.git',
        git_http_url: 'http://collab.test:3000/acme/website.git',
        namespace: 'Acme',
        visibility_level: 10,
        path_with_namespace: 'acme/website',
        default_branch: 'main',
        ci_config_path: null,
        homepage: 'http://collab.test:3000/acme/website',
        url: 'git@collab.test:acme/website.git',
        ssh_url: 'git@collab.test:acme/website.git',
        http_url: 'http://collab.test:3000/acme/website.git',
      },
      commits: [
        {
          id: commit.id,
          message: 'Fix it\n\nReally.',
          title: 'Fix it',
          timestamp: '2026-01-12T09:15:00.000+01:00',
          url: `http://collab.test:3000/acme/website/-/commit/${commit.id}`,
          author: { name: 'Ann', email: 'ann@example.com' },
        },
      ],
      total_commits_count: 25,
      push_options: {},
      repository: {
        name: 'Website',
        url: 'git@collab.test:acme/website.git',
        description: 'A site',
        homepage: 'http://collab.test:3000/acme/website',
        git_http_url: 'http://collab.test:3000/acme/website.git',
        git_ssh_url: 'git@collab.test:acme/website.git',
        visibility_level: 10,
      },
    });
  });

  it('is a tag_push for tags and has no checkout_sha for a deletion', () => {
    const base = { baseUrl: 'http://x', project, user, commits: [], totalCommits: 0 };
    const tag = buildPushPayload({
      ...base,
      change: { ref: 'refs/tags/v1', before: ZERO_SHA, after: commit.id, userId: 3 },
    });
    expect(tag).toMatchObject({ object_kind: 'tag_push', event_name: 'tag_push', checkout_sha: commit.id });
    const deletion = buildPushPayload({
      ...base,
      change: { ref: 'refs/heads/old', before: commit.id, after: ZERO_SHA, userId: 3 },
    });
    expect(deletion).toMatchObject({ object_kind: 'push', after: ZERO_SHA, checkout_sha: null, commits: [] });
  });
});

describe('pipeline payload', () => {
  const pipeline: HookPipeline = {
    id: 31,
    project_id: 7,
    iid: 3,
    sha: commit.id,
    before_sha: ZERO_SHA,
    ref: 'main',
    tag: 0,
    status: 'success',
    source: 'api',
    yaml_errors: null,
    user_id: 3,
    created_at: '2026-01-12T09:15:00.000Z',
    updated_at: '2026-01-12T09:16:00.000Z',
    started_at: '2026-01-12T09:15:02.000Z',
    finished_at: '2026-01-12T09:16:00.000Z',
    committed_at: null,
    duration: 58,
    coverage: null,
  };
  const job = (id: number, stage: string, stageIndex: number, fields: Partial<HookPipelineJob> = {}) => ({
    id,
    pipeline_id: 31,
    name: `${stage}-job`,
    stage,
    stage_index: stageIndex,
    status: 'success',
    outcome: 'success',
    duration_seconds: 10,
    allow_failure: 0,
    coverage: null,
    script: '[]',
    test_report: null,
    started_at: '2026-01-12T09:15:02.000Z',
    finished_at: '2026-01-12T09:15:12.000Z',
    created_at: '2026-01-12T09:15:00.000Z',
    updated_at: '2026-01-12T09:15:12.000Z',
    ...fields,
  });

  it('has the attributes, stages in order, the user, project, commit and builds', () => {
    const payload = buildPipelinePayload({
      baseUrl: 'http://x',
      project,
      user,
      pipeline,
      jobs: [
        job(2, 'build', 0),
        job(3, 'test', 1, { status: 'failed', allow_failure: 1 }),
        job(4, 'build', 0),
      ],
      variables: [{ key: 'A', value: '1' }],
      commit,
      protectedRef: true,
    });
    expect(payload.object_kind).toBe('pipeline');
    expect(payload.object_attributes).toEqual({
      id: 31,
      iid: 3,
      name: null,
      ref: 'main',
      tag: false,
      sha: commit.id,
      before_sha: ZERO_SHA,
      source: 'api',
      status: 'success',
      detailed_status: 'passed',
      stages: ['build', 'test'],
      created_at: '2026-01-12 09:15:00 UTC',
      finished_at: '2026-01-12 09:16:00 UTC',
      duration: 58,
      queued_duration: 2,
      protected_ref: true,
      variables: [{ key: 'A', value: '1' }],
      url: 'http://x/acme/website/-/pipelines/31',
    });
    expect(payload.user).toEqual({ ...user, email: '' });
    expect(payload.project).not.toHaveProperty('homepage');
    expect(payload.commit).toMatchObject({ id: commit.id, title: 'Fix it' });
    expect(payload.builds.map((b) => [b.id, b.stage, b.status, b.duration, b.failure_reason])).toEqual([
      [2, 'build', 'success', 10, null],
      [3, 'test', 'failed', 10, 'script_failure'],
      [4, 'build', 'success', 10, null],
    ]);
    expect(payload.builds[1]).toMatchObject({ allow_failure: true, when: 'on_success', manual: false });
  });

  it("shows the project's avatar and CI configuration path as Project#hook_attrs does", () => {
    const payload = buildPipelinePayload({
      baseUrl: 'http://x',
      project: { ...project, avatar: 'logo.png', ci_config_path: 'ci/pipeline.yml' },
      user,
      pipeline,
      jobs: [],
      variables: [],
      commit,
      protectedRef: false,
    });
    expect(payload.project).toMatchObject({
      avatar_url: 'http://x/uploads/-/system/project/avatar/7/logo.png',
      ci_config_path: 'ci/pipeline.yml',
    });
  });

  it("numbers the pipeline by its iid and counts its queue time as GitLab's Ci::Pipeline does", () => {
    const attributesOf = (fields: Partial<HookPipeline>) =>
      buildPipelinePayload({
        baseUrl: 'http://x',
        project,
        user,
        pipeline: { ...pipeline, ...fields },
        jobs: [],
        variables: [],
        commit,
        protectedRef: false,
      }).object_attributes;
    expect(attributesOf({ id: 900, iid: 12 })).toMatchObject({ id: 900, iid: 12 });
    // Whole seconds; none before the start, and none when it started at once.
    expect(attributesOf({ started_at: '2026-01-12T09:15:02.900Z' }).queued_duration).toBe(2);
    expect(attributesOf({ started_at: null }).queued_duration).toBeNull();
    expect(attributesOf({ started_at: '2026-01-12T09:15:00.400Z' }).queued_duration).toBeNull();
  });

  it('renders times as GitLab does and keeps unknown ones null', () => {
    expect(hookTime('2026-01-12T09:15:00.123Z')).toBe('2026-01-12 09:15:00 UTC');
    expect(hookTime(null)).toBeNull();
    expect(hookTime('garbage')).toBeNull();
  });
});
