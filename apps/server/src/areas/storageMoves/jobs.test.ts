import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_AREAS } from '../../app.js';
import { DEMO_FIXTURES_PATH } from '../../config.js';
import type { ServerContext } from '../../core/context.js';
import { RepositoryEvents } from '../../core/git/repositoryEvents.js';
import { RepositoryStorages } from '../../core/git/storages.js';
import { ApiError } from '../../core/http/errors.js';
import { DEFAULT_INSTANCE_SETTINGS } from '../../core/instance.js';
import { JobQueue } from '../../core/jobs/queue.js';
import { openDatabase } from '../../core/store/database.js';
import { loadFixturesIfEmpty } from '../../core/store/fixtures.js';
import { readFixturesFile } from '../../core/store/fixturesFile.js';
import { registerStorageMoveJobs, runStorageMove } from './jobs.js';
import { STORAGE_MOVE_JOB, scheduleStorageMove } from './service.js';

const execFileAsync = promisify(execFile);

/** Every ref and its SHA, straight from git (independent of the code under test). */
async function refsOf(repo: string): Promise<string> {
  const { stdout } = await execFileAsync(
    'git',
    [`--git-dir=${repo}`, 'for-each-ref', '--format=%(refname) %(objectname)'],
    {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    },
  );
  return stdout;
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

let dataDir: string;
let context: ServerContext;
/** acme/website, on `default` in the fixtures. */
const PROJECT_ID = 1;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-storage-moves-'));
  const db = await openDatabase(dataDir);
  const storages = new RepositoryStorages(dataDir, ['default', 'secondary']);
  await storages.ensureDirectories();
  // The queue is not started: each test runs the move itself, at the moment it chooses.
  context = {
    db,
    dataDir,
    storages,
    jobs: new JobQueue(db),
    repositoryEvents: new RepositoryEvents(),
    instance: DEFAULT_INSTANCE_SETTINGS,
  };
  await loadFixturesIfEmpty(
    context,
    await readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH)),
    FIXTURE_AREAS,
  );
});

afterEach(async () => {
  await context.jobs.stop();
  await context.db.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

const source = (): string => context.storages.pathFor('default', PROJECT_ID);
const destination = (): string => context.storages.pathFor('secondary', PROJECT_ID);
const projectRow = () =>
  context.db
    .selectFrom('projects')
    .select(['repository_storage', 'repository_generation'])
    .where('id', '=', PROJECT_ID)
    .executeTakeFirstOrThrow();
const projectStorage = async (): Promise<string> => (await projectRow()).repository_storage;
const setMoveState = (id: number, state: string): Promise<unknown> =>
  context.db.updateTable('project_repository_storage_moves').set({ state }).where('id', '=', id).execute();

describe('scheduleStorageMove', () => {
  it('records a scheduled move and queues its job', async () => {
    const move = await scheduleStorageMove(context, 'acme/website', 'secondary');
    expect(move).toMatchObject({
      state: 'scheduled',
      source_storage_name: 'default',
      destination_storage_name: 'secondary',
      project: { id: PROJECT_ID, path_with_namespace: 'acme/website', name_with_namespace: 'Acme / Website' },
    });
    const job = await context.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', STORAGE_MOVE_JOB)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(job.payload)).toEqual({ moveId: move.id });
    expect(job.state).toBe('queued');
  });

  it('refuses an unknown project, an unknown storage, the current storage and a second move in progress', async () => {
    const statusOf = (promise: Promise<unknown>): Promise<number | undefined> =>
      promise.then(
        () => undefined,
        (error: unknown) => (error instanceof ApiError ? error.status : undefined),
      );
    expect(await statusOf(scheduleStorageMove(context, 'acme/nope', 'secondary'))).toBe(404);
    expect(await statusOf(scheduleStorageMove(context, '1', 'tertiary'))).toBe(400);
    expect(await statusOf(scheduleStorageMove(context, '1', 'default'))).toBe(400);
    await scheduleStorageMove(context, '1', 'secondary');
    expect(await statusOf(scheduleStorageMove(context, '1', 'secondary'))).toBe(409);
    const moves = await context.db.selectFrom('project_repository_storage_moves').selectAll().execute();
    expect(moves).toHaveLength(1);
  });
});

describe('runStorageMove', () => {
  it('copies the repository, switches the project and removes the source', async () => {
    const refs = await refsOf(source());
    const generationBefore = (await projectRow()).repository_generation;
    const move = await scheduleStorageMove(context, '1', 'secondary');
    const done = await runStorageMove(context, move.id);
    expect(done).toMatchObject({ state: 'finished', error: null });
    expect(await projectStorage()).toBe('secondary');
    // Other server processes drop their cached reads of the repository when they see a new generation.
    expect((await projectRow()).repository_generation).toBe(generationBefore + 1);
    expect(await refsOf(destination())).toBe(refs);
    expect(await exists(source())).toBe(false);
    expect(await exists(`${destination()}.moving`)).toBe(false);
    // A finished move is not run again (the fallback job of the command, a replayed job).
    expect(await runStorageMove(context, move.id)).toMatchObject({ state: 'finished' });
    expect(await projectStorage()).toBe('secondary');
  });

  it('resumes a move interrupted during the copy, discarding the partial copy', async () => {
    const refs = await refsOf(source());
    const move = await scheduleStorageMove(context, '1', 'secondary');
    await setMoveState(move.id, 'started');
    await mkdir(`${destination()}.moving`, { recursive: true });
    await writeFile(join(`${destination()}.moving`, 'HEAD'), 'garbage');
    await mkdir(destination(), { recursive: true });
    await writeFile(join(destination(), 'junk'), 'left by a crash after the rename');
    expect(await runStorageMove(context, move.id)).toMatchObject({ state: 'finished' });
    expect(await refsOf(destination())).toBe(refs);
    expect(await exists(join(destination(), 'junk'))).toBe(false);
  });

  it('resumes a move interrupted after the switch by removing the source only', async () => {
    const refs = await refsOf(source());
    const move = await scheduleStorageMove(context, '1', 'secondary');
    await cp(source(), destination(), { recursive: true });
    await context.db
      .updateTable('projects')
      .set({ repository_storage: 'secondary' })
      .where('id', '=', PROJECT_ID)
      .execute();
    await setMoveState(move.id, 'replicated');
    expect(await runStorageMove(context, move.id)).toMatchObject({ state: 'finished' });
    expect(await exists(source())).toBe(false);
    expect(await refsOf(destination())).toBe(refs);
  });

  it('fails, leaving the project where it was, when the source repository cannot be read', async () => {
    const move = await scheduleStorageMove(context, '1', 'secondary');
    await rm(source(), { recursive: true, force: true });
    const done = await runStorageMove(context, move.id);
    expect(done?.state).toBe('failed');
    expect(done?.error).toBeTruthy();
    expect(await projectStorage()).toBe('default');
    expect(await exists(destination())).toBe(false);
    // A failed move no longer blocks a new one.
    await expect(scheduleStorageMove(context, '1', 'secondary')).resolves.toMatchObject({
      state: 'scheduled',
    });
  });

  it('fails when the project was moved elsewhere meanwhile', async () => {
    const move = await scheduleStorageMove(context, '1', 'secondary');
    await context.db
      .updateTable('projects')
      .set({ repository_storage: 'elsewhere' })
      .where('id', '=', PROJECT_ID)
      .execute();
    const done = await runStorageMove(context, move.id);
    expect(done).toMatchObject({ state: 'failed' });
    expect(done?.error).toMatch(/elsewhere/);
  });

  it('is carried out by the job queue', async () => {
    registerStorageMoveJobs(context);
    const move = await scheduleStorageMove(context, '1', 'secondary');
    await context.jobs.start();
    await context.jobs.idle();
    const row = await context.db
      .selectFrom('project_repository_storage_moves')
      .selectAll()
      .where('id', '=', move.id)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('finished');
    expect(await projectStorage()).toBe('secondary');
  });
});
