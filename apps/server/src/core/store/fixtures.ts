// Loads the objects the API cannot create (users, tokens, groups, projects and their repositories) into an
// empty database. A database that already holds users is left alone, so a restart keeps all state.

import { hashToken } from '../access/caller.js';
import type { ServerContext } from '../context.js';
import { GitRepository, initBareRepository } from '../git/repository.js';
import { nowIso } from './database.js';
import type {
  FixtureEpic,
  FixtureIssue,
  FixtureNote,
  FixtureSnippet,
  Fixtures,
  FixtureTodo,
  FixtureUserProfile,
} from './fixturesFile.js';

/** A fixture user's profile as `users` columns; what it leaves out keeps the column's default. */
function userProfileColumns(profile: FixtureUserProfile | undefined) {
  if (!profile) return {};
  const flag = (value: boolean | undefined): number | undefined =>
    value === undefined ? undefined : value ? 1 : 0;
  const { external, private_profile, can_create_group, ...texts } = profile;
  return {
    ...texts,
    external: flag(external),
    private_profile: flag(private_profile),
    can_create_group: flag(can_create_group),
  };
}

export async function loadFixturesIfEmpty(context: ServerContext, fixtures: Fixtures): Promise<void> {
  const { db } = context;
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return;
  const now = nowIso();
  const userIds = new Map<string, number>();
  const groupIds = new Map<string, number>();

  for (const user of fixtures.users) {
    const { id } = await db
      .insertInto('users')
      .values({
        username: user.username,
        name: user.name,
        email: user.email,
        state: user.state ?? 'active',
        is_admin: user.admin ? 1 : 0,
        avatar_url: null,
        created_at: now,
        updated_at: now,
        ...userProfileColumns(user.profile),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    userIds.set(user.username, id);
    for (const token of user.tokens) {
      await db
        .insertInto('personal_access_tokens')
        .values({
          user_id: id,
          name: token.name,
          token_sha256: hashToken(token.token),
          scopes: JSON.stringify(token.scopes),
          expires_at: token.expires_at ?? null,
          revoked: token.revoked ? 1 : 0,
        })
        .execute();
    }
  }
  const userId = (username: string): number => {
    const id = userIds.get(username);
    if (id === undefined) throw new Error(`fixtures: unknown user ${username}`);
    return id;
  };
  const groupId = (fullPath: string): number => {
    const id = groupIds.get(fullPath);
    if (id === undefined) throw new Error(`fixtures: unknown group ${fullPath}`);
    return id;
  };

  for (const group of fixtures.groups) {
    const fullPath = group.parent ? `${group.parent}/${group.path}` : group.path;
    const { id } = await db
      .insertInto('groups')
      .values({
        name: group.name,
        path: group.path,
        full_path: fullPath,
        parent_id: group.parent ? groupId(group.parent) : null,
        visibility: group.visibility,
        description: group.description ?? '',
        created_at: now,
        kind: group.kind ?? 'group',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    groupIds.set(fullPath, id);
    for (const member of group.members ?? []) {
      await db
        .insertInto('members')
        .values({
          source_type: 'Group',
          source_id: id,
          user_id: userId(member.username),
          access_level: member.access_level,
          created_at: now,
        })
        .execute();
    }
    for (const [key, value] of Object.entries(group.custom_attributes ?? {})) {
      await db
        .insertInto('custom_attributes')
        .values({ subject_type: 'Group', subject_id: id, key, value, created_at: now, updated_at: now })
        .execute();
    }
    if (group.saml) {
      await db
        .insertInto('group_saml_providers')
        .values({
          group_id: id,
          enabled: group.saml.enabled ? 1 : 0,
          default_membership_role: group.saml.default_membership_role ?? 10,
          created_at: now,
        })
        .execute();
      if (group.saml.scim_token)
        await db
          .insertInto('group_scim_tokens')
          .values({ group_id: id, token_sha256: hashToken(group.saml.scim_token), created_at: now })
          .execute();
    }
  }
  for (const group of fixtures.groups) {
    const fullPath = group.parent ? `${group.parent}/${group.path}` : group.path;
    if (group.epics) await loadEpics(context, groupId(fullPath), group.epics, userId);
    for (const label of group.labels ?? [])
      await db
        .insertInto('labels')
        .values({
          group_id: groupId(fullPath),
          project_id: null,
          title: label.name,
          color: label.color,
          description: label.description ?? null,
          created_at: now,
          updated_at: now,
        })
        .execute();
  }

  for (const project of fixtures.projects) {
    const defaultBranch = project.default_branch ?? 'main';
    const { id } = await db
      .insertInto('projects')
      .values({
        name: project.name,
        path: project.path,
        namespace_id: groupId(project.namespace),
        visibility: project.visibility,
        description: project.description ?? null,
        default_branch: defaultBranch,
        archived: 0,
        repository_storage: context.storages.names[0] ?? 'default',
        creator_id: userId(project.creator),
        created_at: now,
        last_activity_at: now,
        repository_generation: 0,
        issues_enabled: project.issues_enabled === false ? 0 : 1,
        merge_requests_enabled: project.merge_requests_enabled === false ? 0 : 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const member of project.members ?? []) {
      await db
        .insertInto('members')
        .values({
          source_type: 'Project',
          source_id: id,
          user_id: userId(member.username),
          access_level: member.access_level,
          created_at: now,
        })
        .execute();
    }
    for (const [index, username] of (project.starred_by ?? []).entries()) {
      // A second apart, so the starrers' order (newest first) is the file's, reversed.
      const starredAt = new Date(Date.parse(now) + index * 1000).toISOString();
      await db
        .insertInto('project_stars')
        .values({ user_id: userId(username), project_id: id, created_at: starredAt })
        .execute();
    }
    for (const [key, value] of Object.entries(project.custom_attributes ?? {})) {
      await db
        .insertInto('custom_attributes')
        .values({ subject_type: 'Project', subject_id: id, key, value, created_at: now, updated_at: now })
        .execute();
    }
    for (const share of project.shared_with ?? []) {
      await db
        .insertInto('project_group_links')
        .values({
          project_id: id,
          group_id: groupId(share.group),
          group_access: share.group_access,
          expires_at: null,
        })
        .execute();
    }
    for (const rule of project.protected_branches ?? []) {
      const { id: ruleId } = await db
        .insertInto('protected_branches')
        .values({ project_id: id, name: rule.name, code_owner_approval_required: 0, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('protected_branch_access_levels')
        .values([
          {
            protected_branch_id: ruleId,
            action: 'push',
            access_level: rule.push_access_level,
            user_id: null,
            group_id: null,
          },
          {
            protected_branch_id: ruleId,
            action: 'merge',
            access_level: rule.merge_access_level,
            user_id: null,
            group_id: null,
          },
          {
            protected_branch_id: ruleId,
            action: 'unprotect',
            access_level: 40,
            user_id: null,
            group_id: null,
          },
        ])
        .execute();
    }
    for (const hook of project.hooks ?? []) {
      const flag = (value: boolean | undefined): number => (value ? 1 : 0);
      await db
        .insertInto('project_hooks')
        .values({
          project_id: id,
          url: hook.url,
          token: hook.token ?? null,
          push_events: flag(hook.push_events),
          tag_push_events: flag(hook.tag_push_events),
          issues_events: flag(hook.issues_events),
          confidential_issues_events: flag(hook.confidential_issues_events),
          merge_requests_events: flag(hook.merge_requests_events),
          note_events: flag(hook.note_events),
          confidential_note_events: flag(hook.confidential_note_events),
          job_events: flag(hook.job_events),
          pipeline_events: flag(hook.pipeline_events),
          wiki_page_events: flag(hook.wiki_page_events),
          push_events_branch_filter: hook.push_events_branch_filter ?? '',
          enable_ssl_verification: flag(hook.enable_ssl_verification ?? true),
          created_at: now,
        })
        .execute();
    }
    for (const integration of project.integrations ?? []) {
      const flag = (value: boolean | undefined): number => (value ? 1 : 0);
      await db
        .insertInto('integrations')
        .values({
          project_id: id,
          slug: integration.slug,
          active: 1,
          properties: JSON.stringify(integration.properties),
          push_events: flag(integration.push_events),
          tag_push_events: flag(integration.tag_push_events),
          merge_requests_events: flag(integration.merge_requests_events),
          pipeline_events: flag(integration.pipeline_events),
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    const repoPath = context.storages.pathFor(context.storages.names[0] ?? 'default', id);
    await initBareRepository(repoPath, defaultBranch);
    if (project.repository)
      await seedRepository(
        new GitRepository(repoPath),
        defaultBranch,
        project.repository,
        fixtures,
        project.creator,
      );
    await loadIssues(context, id, project.issues ?? [], userId);
    await loadMergeRequests(context, id, defaultBranch, new GitRepository(repoPath), project, userId);
    await loadSnippets(context, id, project.snippets ?? [], userId);
  }
  await loadSnippets(context, null, fixtures.snippets ?? [], userId);
  await loadTodos(context, fixtures.todos ?? [], userId);
}

/** To-dos of users about the projects' issues and merge requests (targets by project path and iid). */
async function loadTodos(
  context: ServerContext,
  todos: readonly FixtureTodo[],
  userId: (username: string) => number,
): Promise<void> {
  for (const todo of todos) {
    const slash = todo.project.lastIndexOf('/');
    const projectRow = await context.db
      .selectFrom('projects as p')
      .innerJoin('groups as g', 'g.id', 'p.namespace_id')
      .select('p.id')
      .where('g.full_path', '=', todo.project.slice(0, slash))
      .where('p.path', '=', todo.project.slice(slash + 1))
      .executeTakeFirst();
    const projectId = projectRow?.id ?? 0;
    const columns = ['id', 'title', 'project_id', 'created_at'] as const;
    const target =
      todo.target === 'issue'
        ? await context.db
            .selectFrom('issues')
            .select(columns)
            .where('project_id', '=', projectId)
            .where('iid', '=', todo.iid)
            .executeTakeFirst()
        : await context.db
            .selectFrom('merge_requests')
            .select(columns)
            .where('project_id', '=', projectId)
            .where('iid', '=', todo.iid)
            .executeTakeFirst();
    if (!target)
      throw new Error(`fixtures: to-do on ${todo.project} ${todo.target} ${todo.iid}: no such target`);
    await context.db
      .insertInto('todos')
      .values({
        user_id: userId(todo.user),
        author_id: userId(todo.author),
        project_id: target.project_id,
        group_id: null,
        target_type: todo.target === 'issue' ? 'Issue' : 'MergeRequest',
        target_id: target.id,
        action: todo.action,
        body: todo.body ?? target.title,
        note_id: null,
        state: todo.state ?? 'pending',
        created_at: target.created_at,
        updated_at: target.created_at,
      })
      .execute();
  }
}

/** Snippets of a project, or personal ones (`projectId` null), with their files. */
async function loadSnippets(
  context: ServerContext,
  projectId: number | null,
  snippets: readonly FixtureSnippet[],
  userId: (username: string) => number,
): Promise<void> {
  for (const snippet of snippets) {
    const createdAt = daysBefore(snippet.created_days_ago);
    const { id } = await context.db
      .insertInto('snippets')
      .values({
        project_id: projectId,
        author_id: userId(snippet.author),
        title: snippet.title,
        description: snippet.description ?? null,
        visibility: snippet.visibility,
        expires_at: null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const files = Object.entries(snippet.files).map(([path, content]) => ({ snippet_id: id, path, content }));
    if (files.length > 0) await context.db.insertInto('snippet_files').values(files).execute();
  }
}

async function seedRepository(
  repo: GitRepository,
  defaultBranch: string,
  content: NonNullable<Fixtures['projects'][number]['repository']>,
  fixtures: Fixtures,
  creator: string,
): Promise<void> {
  const author = fixtures.users.find((u) => u.username === creator);
  const identity = {
    authorName: author?.name ?? creator,
    authorEmail: author?.email ?? `${creator}@example.com`,
    committerName: author?.name ?? creator,
    committerEmail: author?.email ?? `${creator}@example.com`,
  };
  const commitAll = async (branch: string, files: Record<string, string>): Promise<void> => {
    for (const [filePath, text] of Object.entries(files)) {
      const result = await repo.commitFileChange({
        branch,
        action: 'create',
        filePath,
        content: Buffer.from(text),
        message: `Add ${filePath}`,
        ...identity,
      });
      if (!result.ok) throw new Error(`fixtures: cannot commit ${filePath} to ${branch}: ${result.reason}`);
    }
  };
  await commitAll(defaultBranch, content.files);
  for (const branch of content.branches ?? []) {
    const created = await repo.createBranch(branch.name, defaultBranch);
    if (!created.ok) throw new Error(`fixtures: cannot create branch ${branch.name}: ${created.reason}`);
    if (branch.files) await commitAll(branch.name, branch.files);
  }
}

/** When something happened `daysAgo` days before now (fixtures spread their objects out in time). */
function daysBefore(daysAgo: number | undefined): string {
  return new Date(Date.now() - (daysAgo ?? 0) * 86_400_000).toISOString();
}

/** The notes of an issue or merge request: the system notes the server would have written, then the file's. */
async function loadNotes(
  context: ServerContext,
  type: 'Issue' | 'MergeRequest',
  noteableId: number,
  projectId: number,
  notes: readonly FixtureNote[],
  systemNotes: readonly { body: string; author: string; at: string }[],
  userId: (username: string) => number,
): Promise<void> {
  const rows = [
    ...systemNotes.map((note) => ({
      body: note.body,
      author: note.author,
      system: 1,
      internal: 0,
      at: note.at,
    })),
    ...notes.map((note) => ({
      body: note.body,
      author: note.author,
      system: 0,
      internal: note.internal ? 1 : 0,
      at: daysBefore(note.created_days_ago),
    })),
  ];
  for (const row of rows)
    await context.db
      .insertInto('notes')
      .values({
        noteable_type: type,
        noteable_id: noteableId,
        project_id: projectId,
        group_id: null,
        author_id: userId(row.author),
        body: row.body,
        system: row.system,
        confidential: row.internal,
        created_at: row.at,
        updated_at: row.at,
      })
      .execute();
}

/** The labels and users of an issue or merge request (rows of issuable_labels and issuable_users). */
async function attachToIssuable(
  context: ServerContext,
  type: 'Issue' | 'MergeRequest',
  id: number,
  attached: { labels?: string[]; assignees?: string[]; reviewers?: string[] },
  userId: (username: string) => number,
): Promise<void> {
  for (const name of attached.labels ?? [])
    await context.db
      .insertInto('issuable_labels')
      .values({ issuable_type: type, issuable_id: id, name })
      .execute();
  for (const role of ['assignee', 'reviewer'] as const) {
    const usernames = (role === 'assignee' ? attached.assignees : attached.reviewers) ?? [];
    for (const [position, username] of usernames.entries())
      await context.db
        .insertInto('issuable_users')
        .values({ issuable_type: type, issuable_id: id, role, user_id: userId(username), position })
        .execute();
  }
}

/**
 * The epics of a group. Dates are fixed ones; a parent without fixed dates inherits its children's (the
 * earliest start and the latest due date), as the epics area keeps them, children being listed after
 * their parents.
 */
async function loadEpics(
  context: ServerContext,
  groupId: number,
  epics: readonly FixtureEpic[],
  userId: (username: string) => number,
): Promise<void> {
  const rows: { id: number; parent: number | undefined; start: string | null; due: string | null }[] = [];
  for (const [index, epic] of epics.entries()) {
    const createdAt = daysBefore(epic.created_days_ago);
    const parent = epic.parent === undefined ? undefined : rows[epic.parent - 1];
    if (epic.parent !== undefined && (!parent || epic.parent > index))
      throw new Error(
        `fixtures: epic ${index + 1} names parent ${epic.parent}, which is not an earlier epic`,
      );
    const start = epic.start_date_fixed ?? null;
    const due = epic.due_date_fixed ?? null;
    const { id } = await context.db
      .insertInto('epics')
      .values({
        group_id: groupId,
        iid: index + 1,
        parent_id: parent?.id ?? null,
        title: epic.title,
        description: epic.description ?? null,
        state: epic.closed_by ? 'closed' : 'opened',
        confidential: epic.confidential ? 1 : 0,
        author_id: userId(epic.author),
        start_date_is_fixed: start === null ? 0 : 1,
        start_date_fixed: start,
        start_date_inherited: null,
        start_date: start,
        due_date_is_fixed: due === null ? 0 : 1,
        due_date_fixed: due,
        due_date_inherited: null,
        end_date: due,
        closed_at: epic.closed_by ? createdAt : null,
        closed_by_id: epic.closed_by ? userId(epic.closed_by) : null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    rows.push({ id, parent: epic.parent, start, due });
    for (const name of epic.labels ?? [])
      await context.db
        .insertInto('issuable_labels')
        .values({ issuable_type: 'Epic', issuable_id: id, name })
        .execute();
    for (const [name, usernames] of Object.entries(epic.award_emoji ?? {}))
      for (const username of usernames)
        await context.db
          .insertInto('award_emoji')
          .values({
            name,
            user_id: userId(username),
            awardable_type: 'Epic',
            awardable_id: id,
            created_at: createdAt,
            updated_at: createdAt,
          })
          .execute();
  }
  // Children come after their parents: walking backwards, a child's effective dates are final before its
  // parent's inherited ones are taken from them.
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index];
    if (!row) continue;
    const children = rows.filter((child) => child.parent === index + 1);
    const starts = children.flatMap((child) => (child.start === null ? [] : [child.start])).sort();
    const dues = children.flatMap((child) => (child.due === null ? [] : [child.due])).sort();
    const startInherited = starts[0] ?? null;
    const dueInherited = dues.at(-1) ?? null;
    if (row.start === null) row.start = startInherited;
    if (row.due === null) row.due = dueInherited;
    await context.db
      .updateTable('epics')
      .set({
        start_date_inherited: startInherited,
        due_date_inherited: dueInherited,
        start_date: row.start,
        end_date: row.due,
      })
      .where('id', '=', row.id)
      .execute();
  }
  if (epics.length > 0)
    await context.db
      .insertInto('group_internal_ids')
      .values({ group_id: groupId, usage: 'epics', last_value: epics.length })
      .execute();
}

async function loadIssues(
  context: ServerContext,
  projectId: number,
  issues: readonly FixtureIssue[],
  userId: (username: string) => number,
): Promise<void> {
  for (const [index, issue] of issues.entries()) {
    const createdAt = daysBefore(issue.created_days_ago);
    const { id } = await context.db
      .insertInto('issues')
      .values({
        project_id: projectId,
        iid: index + 1,
        title: issue.title,
        description: issue.description ?? null,
        state: issue.closed_by ? 'closed' : 'opened',
        author_id: userId(issue.author),
        confidential: issue.confidential ? 1 : 0,
        discussion_locked: null,
        due_date: issue.due_date ?? null,
        closed_at: issue.closed_by ? createdAt : null,
        closed_by_id: issue.closed_by ? userId(issue.closed_by) : null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await attachToIssuable(context, 'Issue', id, issue, userId);
    const closed = issue.closed_by ? [{ body: 'closed', author: issue.closed_by, at: createdAt }] : [];
    await loadNotes(context, 'Issue', id, projectId, issue.notes ?? [], closed, userId);
  }
  if (issues.length > 0)
    await context.db
      .insertInto('internal_ids')
      .values({ project_id: projectId, usage: 'issues', last_value: issues.length })
      .execute();
}

async function loadMergeRequests(
  context: ServerContext,
  projectId: number,
  defaultBranch: string,
  repo: GitRepository,
  project: Fixtures['projects'][number],
  userId: (username: string) => number,
): Promise<void> {
  const mergeRequests = project.merge_requests ?? [];
  for (const [index, mr] of mergeRequests.entries()) {
    const createdAt = daysBefore(mr.created_days_ago);
    const state = mr.state ?? 'opened';
    const changedBy = userId(mr.state_changed_by ?? mr.author);
    const { id } = await context.db
      .insertInto('merge_requests')
      .values({
        project_id: projectId,
        iid: index + 1,
        title: mr.title,
        description: mr.description ?? null,
        state,
        author_id: userId(mr.author),
        source_project_id: projectId,
        source_branch: mr.source_branch,
        target_branch: mr.target_branch ?? defaultBranch,
        // The source branch's head now; null when the fixture names a branch the repository lacks.
        sha: await repo.resolveRef(`refs/heads/${mr.source_branch}`),
        merge_commit_sha: null,
        merge_status: mr.merge_status ?? 'can_be_merged',
        merged_by_id: state === 'merged' ? changedBy : null,
        merged_at: state === 'merged' ? createdAt : null,
        closed_by_id: state === 'closed' ? changedBy : null,
        closed_at: state === 'closed' ? createdAt : null,
        squash: mr.squash ? 1 : 0,
        force_remove_source_branch: 0,
        merge_when_pipeline_succeeds: 0,
        discussion_locked: null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await attachToIssuable(context, 'MergeRequest', id, mr, userId);
    await loadNotes(context, 'MergeRequest', id, projectId, mr.notes ?? [], [], userId);
  }
  if (mergeRequests.length > 0)
    await context.db
      .insertInto('internal_ids')
      .values({ project_id: projectId, usage: 'merge_requests', last_value: mergeRequests.length })
      .execute();
}
