// A data directory copied from a prepared template holds what loading the fixtures into it holds: the same
// rows in every table and the same repositories (refs, their trees, HEAD). Timestamps and commit SHAs are
// the moment's (a commit's SHA covers its date), so they are compared by shape.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_AREAS } from '../../app.js';
import { DEMO_FIXTURES_PATH } from '../../config.js';
import { openDataDirectory } from '../dataDirectory.js';
import { copyTemplate } from './dataTemplate.js';
import { readFixturesFile } from './fixturesFile.js';
import { SQLite } from './sqliteDriver.js';

const run = promisify(execFile);
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'collab-data-template-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Opens a data directory with the demo fixtures and closes it again. */
async function seeded(name: string, dataTemplates: string | false): Promise<string> {
  const dataDir = join(work, name);
  const fixtures = await readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH));
  const context = await openDataDirectory({
    dataDir,
    fixtures,
    fixtureAreas: FIXTURE_AREAS,
    storageNames: ['default', 'secondary'],
    dataTemplates,
  });
  await context.db.destroy();
  return dataDir;
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const SHA = /^[0-9a-f]{40}$/;
const shape = (value: unknown): unknown =>
  typeof value === 'string' && TIMESTAMP.test(value)
    ? '<timestamp>'
    : typeof value === 'string' && SHA.test(value)
      ? '<sha>'
      : Buffer.isBuffer(value)
        ? value.toString('base64')
        : value;

/** Every table's rows (sorted, timestamps and SHAs by shape). */
function databaseContents(dataDir: string): Record<string, string[]> {
  const sqlite = new SQLite(join(dataDir, 'collab.sqlite3'), { readonly: true });
  try {
    const tables = sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        (sqlite.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[])
          .map((row) => JSON.stringify(Object.entries(row).map(([column, value]) => [column, shape(value)])))
          .sort(),
      ]),
    );
  } finally {
    sqlite.close();
  }
}

/** Each repository's HEAD, and its refs with the tree of each. */
async function repositories(dataDir: string): Promise<Record<string, string>> {
  const contents: Record<string, string> = {};
  for (const storage of await readdir(join(dataDir, 'repositories'))) {
    for (const repository of await readdir(join(dataDir, 'repositories', storage))) {
      const gitDir = join(dataDir, 'repositories', storage, repository);
      const head = await run('git', ['--git-dir', gitDir, 'symbolic-ref', 'HEAD']);
      const refs = await run('git', ['--git-dir', gitDir, 'for-each-ref', '--format=%(refname) %(tree)']);
      contents[`${storage}/${repository}`] = `${head.stdout}${refs.stdout}`;
    }
  }
  return contents;
}

describe('a data directory from a template', () => {
  it('holds the rows and repositories that loading the fixtures gives, made once and copied after', async () => {
    const templates = join(work, 'templates');
    const loaded = await seeded('loaded', false);
    const first = await seeded('first-copy', templates);
    expect((await readdir(templates)).filter((name) => !name.startsWith('.'))).toHaveLength(1);
    const second = await seeded('second-copy', templates);
    expect(await readdir(templates)).toHaveLength(1);

    const expected = databaseContents(loaded);
    expect(Object.values(expected).flat().length).toBeGreaterThan(100);
    expect(databaseContents(first)).toEqual(expected);
    expect(databaseContents(second)).toEqual(expected);
    const expectedRepositories = await repositories(loaded);
    expect(Object.keys(expectedRepositories).length).toBeGreaterThan(3);
    expect(await repositories(first)).toEqual(expectedRepositories);
    expect(await repositories(second)).toEqual(expectedRepositories);
    // Two loads of the fixtures (hundreds of inserts and git processes each): 30 s on a loaded machine.
  }, 180_000);

  it('is not used for a data directory that is not empty (a restart keeps its own data)', async () => {
    const templates = join(work, 'templates-restart');
    const dataDir = await seeded('restart', false);
    const before = databaseContents(dataDir);
    await seeded('restart', templates);
    expect(await readdir(templates).catch(() => [])).toEqual([]);
    expect(databaseContents(dataDir)).toEqual(before);
  });

  it('keeps the most recently used templates up to a count: a new one removes the one unused longest', async () => {
    const templates = join(work, 'templates-pruned');
    const make = (content: string) => async (directory: string) => {
      await mkdir(directory, { recursive: true });
      await writeFile(join(directory, 'data'), content);
    };
    await copyTemplate(join(work, 'pruned-a'), templates, 'a', make('a'), 2);
    await copyTemplate(join(work, 'pruned-b'), templates, 'b', make('b'), 2);
    // `a` made long ago, but used again after `b` was made: `b` is the one unused longest.
    await utimes(join(templates, 'a'), new Date(1_000_000), new Date(1_000_000));
    await copyTemplate(join(work, 'pruned-a2'), templates, 'a', make('unused'), 2);
    await copyTemplate(join(work, 'pruned-c'), templates, 'c', make('c'), 2);
    expect((await readdir(templates)).sort()).toEqual(['a', 'c']);
    expect(await readdir(join(work, 'pruned-a2'))).toEqual(['data']);
  });
});
