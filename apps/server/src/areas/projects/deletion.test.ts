// Deleting a project: without the higher tier every row of the project in every table, its queued jobs, its
// repository and its files go at once; with it the project is marked, restored, or removed by the delayed job.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from '../../appServer.testSupport.js';
import type { InstanceSettings } from '../../core/instance.js';
import type { Db } from '../../core/store/database.js';
import type { Fixtures } from '../../core/store/fixturesFile.js';
import { avatarDirectory } from '../avatars/index.js';
import { newEd25519Key } from '../deployKeys/sshKeys.testSupport.js';

const FIXTURES: Fixtures = {
  users: ['admin', 'olga', 'otto'].map((username) => ({
    username,
    name: username,
    email: `${username}@example.com`,
    admin: username === 'admin',
    tokens: [{ name: 'test', token: `${username}-token`, scopes: ['api'] }],
  })),
  groups: [
    { path: 'g', name: 'G', visibility: 'public', members: [{ username: 'olga', access_level: 50 }] },
    { path: 'partners', name: 'Partners', visibility: 'public' },
  ],
  projects: ['doomed', 'kept'].map((path) => ({
    namespace: 'g',
    path,
    name: path,
    visibility: 'public' as const,
    creator: 'olga',
    members: [{ username: 'olga', access_level: 50 }],
    shared_with: [{ group: 'partners', group_access: 20 }],
    protected_branches: [{ name: 'main', push_access_level: 40, merge_access_level: 40 }],
    repository: { files: { 'README.md': `# ${path}\n`, '.collab-ci.yml': 'test:\n  script: echo ok\n' } },
  })),
};

let running: AppServer | undefined;

async function start(instance: Partial<InstanceSettings>): Promise<AppServer> {
  running = await startAppServer('project-deletion', { fixtures: FIXTURES, instance, jobPollIntervalMs: 10 });
  return running;
}

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function call(
  on: AppServer,
  user: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { 'PRIVATE-TOKEN': `${user}-token` };
  let payload: string | FormData | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${on.base}${path}`, { method, headers, body: payload });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function expectStatus(
  on: AppServer,
  user: string,
  method: string,
  path: string,
  status: number,
  body?: unknown,
): Promise<unknown> {
  const response = await call(on, user, method, path, body);
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(status);
  return response.body;
}

/** Rows of a project in every table of the schema: by `project_id`, or by a polymorphic (type, id) pair. */
async function rowsOfProject(db: Db, projectId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await db.introspection.getTables()) {
    const columns = new Set(table.columns.map((column) => column.name));
    const conditions = [];
    if (columns.has('project_id')) conditions.push(sql`project_id = ${projectId}`);
    if (columns.has('source_type') && columns.has('source_id'))
      conditions.push(sql`(source_type = 'Project' and source_id = ${projectId})`);
    if (columns.has('subject_type') && columns.has('subject_id'))
      conditions.push(sql`(subject_type = 'Project' and subject_id = ${projectId})`);
    if (table.name === 'projects') conditions.push(sql`id = ${projectId}`);
    if (conditions.length === 0) continue;
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table.name)}
      where ${sql.join(conditions, sql` or `)}`.execute(db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) counts[table.name] = n;
  }
  return counts;
}

async function queuedJobsOf(db: Db, projectId: number): Promise<number> {
  const jobs = await db.selectFrom('jobs').select('payload').where('state', '=', 'queued').execute();
  return jobs.filter((job) => (JSON.parse(job.payload) as { projectId?: number }).projectId === projectId)
    .length;
}

/** Gives the project rows in as many tables as the API fills, and files outside its repository. */
async function fillProject(on: AppServer, project: string): Promise<void> {
  const id = encodeURIComponent(project);
  await expectStatus(on, 'olga', 'POST', `/projects/${id}/badges`, 201, {
    link_url: 'https://example.com/%{project_path}',
    image_url: 'https://example.com/badge.svg',
  });
  await expectStatus(on, 'otto', 'POST', `/projects/${id}/access_requests`, 201);
  await expectStatus(on, 'olga', 'POST', `/projects/${id}/deploy_keys`, 201, {
    title: 'deploy',
    key: newEd25519Key(),
  });
  await expectStatus(on, 'olga', 'POST', `/projects/${id}/remote_mirrors`, 201, {
    url: 'https://mirror.example.com/repo.git',
  });
  await expectStatus(on, 'olga', 'POST', `/projects/${id}/pipeline`, 201, { ref: 'main' });
  const form = new FormData();
  form.set('file', new Blob(['hello']), 'notes.txt');
  await expectStatus(on, 'olga', 'POST', `/projects/${id}/uploads`, 201, form);
  const avatar = new FormData();
  avatar.set('avatar', new Blob([Buffer.from('89504e470d0a1a0a00', 'hex')], { type: 'image/png' }), 'a.png');
  await expectStatus(on, 'olga', 'PUT', `/projects/${id}`, 200, avatar);
  await expectStatus(on, 'olga', 'POST', `/projects/${id}/export`, 202);
  const projectId = await idOf(on, project);
  const now = new Date().toISOString();
  const db = on.app.context.db;
  // Tables no operation of this test fills: stars and custom attributes.
  const admin = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'admin')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('project_stars')
    .values({ user_id: admin.id, project_id: projectId, created_at: now })
    .execute();
  await db
    .insertInto('custom_attributes')
    .values({
      subject_type: 'Project',
      subject_id: projectId,
      key: 'k',
      value: 'v',
      created_at: now,
      updated_at: now,
    })
    .execute();
  // A queued job of the project, due later: the deletion must take it away.
  await on.app.context.jobs.enqueue(
    'project_export',
    { projectId, generation: 99, attempt: 1 },
    { delayMs: 3_600_000 },
  );
}

async function idOf(on: AppServer, project: string): Promise<number> {
  const [namespace, path] = project.split('/');
  const row = await on.app.context.db
    .selectFrom('projects as p')
    .innerJoin('groups as g', 'g.id', 'p.namespace_id')
    .select('p.id')
    .where('g.full_path', '=', namespace ?? '')
    .where('p.path', '=', path ?? '')
    .executeTakeFirstOrThrow();
  return row.id;
}

function repositoryPath(on: AppServer, projectId: number): string {
  return on.app.context.storages.pathFor('default', projectId);
}

describe('deleting a project without the higher tier', () => {
  it('removes every row of the project, its queued jobs, its repository and its files (uploads, exports, avatar) at once (202)', async () => {
    const on = await start({ tier: 'free' });
    await fillProject(on, 'g/doomed');
    await fillProject(on, 'g/kept');
    await on.app.context.jobs.idle();
    const doomed = await idOf(on, 'g/doomed');
    const kept = await idOf(on, 'g/kept');
    const db = on.app.context.db;
    const before = await rowsOfProject(db, doomed);
    // The test means something only if the project had rows in these tables.
    for (const table of [
      'projects',
      'members',
      'access_requests',
      'badges',
      'deploy_keys_projects',
      'remote_mirrors',
      'pipelines',
      'project_group_links',
      'protected_branches',
      'project_uploads',
      'project_exports',
      'project_stars',
      'custom_attributes',
    ])
      expect(before[table], table).toBeGreaterThan(0);
    expect(await queuedJobsOf(db, doomed)).toBe(1);
    expect(existsSync(repositoryPath(on, doomed))).toBe(true);
    expect(existsSync(join(on.dataDir, 'uploads', String(doomed)))).toBe(true);
    expect(existsSync(join(on.dataDir, 'exports', String(doomed)))).toBe(true);
    expect(existsSync(avatarDirectory(on.dataDir, 'project', doomed))).toBe(true);

    await expectStatus(on, 'otto', 'DELETE', '/projects/g%2Fdoomed', 403);
    expect(await expectStatus(on, 'olga', 'DELETE', '/projects/g%2Fdoomed', 202)).toEqual({
      message: '202 Accepted',
    });

    expect(await rowsOfProject(db, doomed)).toEqual({});
    expect(await queuedJobsOf(db, doomed)).toBe(0);
    expect(existsSync(repositoryPath(on, doomed))).toBe(false);
    expect(existsSync(join(on.dataDir, 'uploads', String(doomed)))).toBe(false);
    expect(existsSync(join(on.dataDir, 'exports', String(doomed)))).toBe(false);
    expect(existsSync(avatarDirectory(on.dataDir, 'project', doomed))).toBe(false);
    await expectStatus(on, 'olga', 'DELETE', '/projects/g%2Fdoomed', 404);
    // The other project keeps everything.
    expect(await rowsOfProject(db, kept)).toEqual(before);
    expect(await queuedJobsOf(db, kept)).toBe(1);
    expect(existsSync(repositoryPath(on, kept))).toBe(true);
    expect(existsSync(avatarDirectory(on.dataDir, 'project', kept))).toBe(true);
    // Restore is a higher-tier operation: GitLab answers 404 after the permission check.
    await expectStatus(on, 'olga', 'POST', '/projects/g%2Fkept/restore', 404);
  });
});

describe('deleting a project with the higher tier', () => {
  it('marks the project, restore brings it back, and the delayed job removes it after the period', async () => {
    // A period of 0.3 s (in days), so the delayed job runs within the test.
    const periodDays = 0.3 / 86_400;
    const on = await start({ tier: 'premium', deletionAdjournedPeriodDays: 3600 / 86_400 });
    const db = on.app.context.db;
    const doomed = await idOf(on, 'g/doomed');

    expect(await expectStatus(on, 'olga', 'DELETE', '/projects/g%2Fdoomed', 202)).toEqual({
      message: '202 Accepted',
    });
    const marked = await db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', doomed)
      .executeTakeFirstOrThrow();
    expect(marked.marked_for_deletion_at).not.toBeNull();
    expect(marked.archived).toBe(1);
    const job = await db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'project_deletion')
      .where('state', '=', 'queued')
      .executeTakeFirstOrThrow();
    // Due after the configured period (an hour here).
    const delay = Date.parse(job.run_at) - Date.parse(marked.marked_for_deletion_at ?? '');
    expect(delay).toBeGreaterThanOrEqual(3_599_000);
    expect(delay).toBeLessThanOrEqual(3_601_000);
    // Marked twice: GitLab's 400.
    await expectStatus(on, 'olga', 'DELETE', '/projects/g%2Fdoomed', 400);

    // Restored: unmarked and unarchived; the queued job then finds nothing to do.
    const restored = (await expectStatus(on, 'olga', 'POST', '/projects/g%2Fdoomed/restore', 201)) as {
      archived: boolean;
      marked_for_deletion_on: string | null;
    };
    expect(restored.archived).toBe(false);
    expect(restored.marked_for_deletion_on).toBeNull();
    await expectStatus(on, 'olga', 'POST', '/projects/g%2Fdoomed/restore', 400);
    await db
      .updateTable('jobs')
      .set({ run_at: new Date(0).toISOString() })
      .where('id', '=', job.id)
      .execute();
    await on.app.context.jobs.idle();
    expect(await rowsOfProject(db, doomed)).toHaveProperty('projects', 1);

    // Marked again: this mark's job, moved to now, removes the project and its repository.
    await expectStatus(on, 'olga', 'DELETE', '/projects/g%2Fdoomed', 202);
    const again = await db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'project_deletion')
      .where('state', '=', 'queued')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('jobs')
      .set({ run_at: new Date(Date.now() + periodDays * 86_400_000).toISOString() })
      .where('id', '=', again.id)
      .execute();
    expect(await rowsOfProject(db, doomed)).toHaveProperty('projects', 1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await on.app.context.jobs.idle();
    expect(await rowsOfProject(db, doomed)).toEqual({});
    expect(existsSync(repositoryPath(on, doomed))).toBe(false);
    const done = await db
      .selectFrom('jobs')
      .select('state')
      .where('id', '=', again.id)
      .executeTakeFirstOrThrow();
    expect(done.state).toBe('done');
  });
});
