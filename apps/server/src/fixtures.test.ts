// Loading a fixtures file: every area loads its own part, all in one transaction. A bad file leaves nothing
// written (no row, no repository), and a database that holds users is left alone.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_AREAS } from './app.js';
import { DEMO_FIXTURES_PATH } from './config.js';
import type { Area } from './core/area.js';
import { RepositoryStorages } from './core/git/storages.js';
import { type Db, openDatabase } from './core/store/database.js';
import { fixtureOrder, loadFixturesIfEmpty } from './core/store/fixtures.js';
import { type Fixtures, readFixturesFile } from './core/store/fixturesFile.js';

let dataDir: string;
let db: Db;
let storages: RepositoryStorages;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-fixtures-'));
  db = await openDatabase(dataDir);
  storages = new RepositoryStorages(dataDir, ['default']);
  await storages.ensureDirectories();
});

afterEach(async () => {
  await db.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

const demo = (): Promise<Fixtures> => readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH));

/** Tables with rows, by name (the migrations' own bookkeeping left out). */
async function filledTables(): Promise<Record<string, number>> {
  const { rows: tables } = await sql<{ name: string }>`
    select name from sqlite_master
    where type = 'table' and name not like 'kysely_%' and name not like 'sqlite_%'
  `.execute(db);
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(db);
    if ((rows[0]?.n ?? 0) > 0) counts[name] = rows[0]?.n ?? 0;
  }
  return counts;
}

const repositories = (): Promise<string[]> => readdir(join(dataDir, 'repositories', 'default'));

describe('loading a fixtures file', () => {
  it('loads the demo file through the areas, each table from its area', async () => {
    expect(await loadFixturesIfEmpty({ db, storages }, await demo(), FIXTURE_AREAS)).toBe(true);
    const tables = await filledTables();
    // One table of each area that loads fixtures.
    for (const table of ['users', 'groups', 'members', 'labels', 'epics', 'group_saml_providers', 'projects'])
      expect(tables[table], table).toBeGreaterThan(0);
    for (const table of ['protected_branches', 'project_hooks', 'integrations', 'issues', 'merge_requests'])
      expect(tables[table], table).toBeGreaterThan(0);
    for (const table of ['notes', 'snippets', 'todos']) expect(tables[table], table).toBeGreaterThan(0);
    expect((await repositories()).length).toBe(tables.projects);
  });

  it('leaves nothing written when the file is bad at its very end (a to-do on no issue)', async () => {
    const bad = await demo();
    bad.todos = [
      ...(bad.todos ?? []),
      {
        user: 'admin',
        author: 'admin',
        action: 'marked',
        project: 'acme/website',
        target: 'issue',
        iid: 999,
      },
    ];
    await expect(loadFixturesIfEmpty({ db, storages }, bad, FIXTURE_AREAS)).rejects.toThrow(
      'fixtures: to-do on acme/website issue 999: no such target',
    );
    expect(await filledTables()).toEqual({});
    expect(await repositories()).toEqual([]);
    // The same database then takes a good file.
    expect(await loadFixturesIfEmpty({ db, storages }, await demo(), FIXTURE_AREAS)).toBe(true);
    expect((await filledTables()).todos).toBe((await demo()).todos?.length);
  });

  it('leaves nothing written when a name is unknown midway (a project of no group)', async () => {
    const bad = await demo();
    const [first, ...rest] = bad.projects;
    if (!first) throw new Error('the demo file has projects');
    bad.projects = [first, { ...first, path: 'orphan', namespace: 'no-such-group' }, ...rest];
    await expect(loadFixturesIfEmpty({ db, storages }, bad, FIXTURE_AREAS)).rejects.toThrow(
      'fixtures: unknown group no-such-group',
    );
    expect(await filledTables()).toEqual({});
    expect(await repositories()).toEqual([]);
  });

  it('leaves a database that holds users alone', async () => {
    await loadFixturesIfEmpty({ db, storages }, await demo(), FIXTURE_AREAS);
    const before = await filledTables();
    expect(await loadFixturesIfEmpty({ db, storages }, await demo(), FIXTURE_AREAS)).toBe(false);
    expect(await filledTables()).toEqual(before);
  });
});

describe('the order of the areas fixtures hooks', () => {
  const area = (name: string, after: string[]): Area => ({
    name,
    router: () => {
      throw new Error('not served');
    },
    fixtures: { after, load: async () => {} },
  });

  it('runs each hook after the areas it names, in list order otherwise', () => {
    const order = fixtureOrder([area('c', ['b']), area('a', []), area('b', ['a'])]).map((hook) => hook.name);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(fixtureOrder(FIXTURE_AREAS).map((hook) => hook.name)).toContain('todos');
  });

  it('refuses hooks that wait for each other or for no area', () => {
    expect(() => fixtureOrder([area('a', ['b']), area('b', ['a'])])).toThrow('wait for each other');
    expect(() => fixtureOrder([area('a', ['nowhere'])])).toThrow('not an area');
  });
});
