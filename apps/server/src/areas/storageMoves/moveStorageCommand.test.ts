import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_AREAS } from '../../app.js';
import { DEMO_FIXTURES_PATH } from '../../config.js';
import { RepositoryStorages } from '../../core/git/storages.js';
import { openDatabase } from '../../core/store/database.js';
import { loadFixturesIfEmpty } from '../../core/store/fixtures.js';
import { readFixturesFile } from '../../core/store/fixturesFile.js';

const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const COMMAND = fileURLToPath(new URL('./moveStorageCommand.ts', import.meta.url));

/** Runs the command as an operator would; never rejects, so the exit code can be checked. */
function moveStorage(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // Without COLLAB_STORAGES the command must fall back to the server's default storages.
  const { COLLAB_STORAGES: _storages, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(TSX, [COMMAND, ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-move-storage-'));
  const db = await openDatabase(dataDir);
  const storages = new RepositoryStorages(dataDir, ['default', 'secondary']);
  await storages.ensureDirectories();
  await loadFixturesIfEmpty(
    { db, storages },
    await readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH)),
    FIXTURE_AREAS,
  );
  await db.destroy();
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function readState(): Promise<{
  moves: { project_id: number; state: string }[];
  jobs: { kind: string; state: string }[];
  storages: Record<number, string>;
}> {
  const db = await openDatabase(dataDir);
  try {
    const moves = await db
      .selectFrom('project_repository_storage_moves')
      .select(['project_id', 'state'])
      .orderBy('id')
      .execute();
    const jobs = await db.selectFrom('jobs').select(['kind', 'state']).orderBy('id').execute();
    const projects = await db.selectFrom('projects').select(['id', 'repository_storage']).execute();
    return { moves, jobs, storages: Object.fromEntries(projects.map((p) => [p.id, p.repository_storage])) };
  } finally {
    await db.destroy();
  }
}

// Each case starts the command in its own process (about a second each under load).
describe('move-storage command', { timeout: 30_000 }, () => {
  it('schedules a move for a running server, using the default storages', async () => {
    const result = await moveStorage('--data-dir', dataDir, '--project', 'acme/website', '--to', 'secondary');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /Storage move 1 scheduled: acme\/website \(project 1\) from default to secondary/,
    );
    const state = await readState();
    expect(state.moves).toEqual([{ project_id: 1, state: 'scheduled' }]);
    expect(state.jobs).toEqual([{ kind: 'project-repository-storage-move', state: 'queued' }]);
    expect(state.storages[1]).toBe('default');
  });

  it('carries out the move itself with --run', async () => {
    const result = await moveStorage('--data-dir', dataDir, '--project', '2', '--to', 'secondary', '--run');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Storage move 2: finished/);
    const state = await readState();
    expect(state.moves[1]).toEqual({ project_id: 2, state: 'finished' });
    expect(state.storages[2]).toBe('secondary');
  });

  it('refuses an unknown storage, an unknown project and missing arguments', async () => {
    const [unknownStorage, unknownProject, missing, noDataDir] = await Promise.all([
      moveStorage('--data-dir', dataDir, '--project', '3', '--to', 'tertiary'),
      moveStorage('--data-dir', dataDir, '--project', 'acme/nope', '--to', 'secondary'),
      moveStorage('--data-dir', dataDir, '--to', 'secondary'),
      moveStorage('--data-dir', join(dataDir, 'nope'), '--project', '3', '--to', 'secondary'),
    ]);
    expect(unknownStorage.code).toBe(1);
    expect(unknownStorage.stderr).toMatch(
      /Unknown repository storage: tertiary \(configured: default, secondary\)/,
    );
    expect(unknownProject.code).toBe(1);
    expect(unknownProject.stderr).toMatch(/Project Not Found/);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--project and --to are required/);
    expect(noDataDir.code).toBe(1);
    expect(noDataDir.stderr).toMatch(/No data directory/);
    expect((await readState()).moves).toHaveLength(2);
  });
});
