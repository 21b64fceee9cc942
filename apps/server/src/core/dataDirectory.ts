// Opens a data directory: creates it, migrates its database, makes its repository storages and loads the
// fixtures into an empty database. Every server process opens it; with several workers the first one opens
// it alone, so that the others find it migrated and seeded. An empty data directory to be seeded is filled
// from a prepared copy of the same seeded data (store/dataTemplate.ts), made on the first such start.
import { mkdir } from 'node:fs/promises';
import type { Area } from './area.js';
import type { ServerContext } from './context.js';
import { RepositoryEvents } from './git/repositoryEvents.js';
import { RepositoryStorages } from './git/storages.js';
import { type InstanceSettings, instanceSettings } from './instance.js';
import { JobQueue } from './jobs/queue.js';
import { openDatabase } from './store/database.js';
import { copyTemplate, DEFAULT_TEMPLATES_DIR, isEmptyDirectory, templateKey } from './store/dataTemplate.js';
import { loadFixturesIfEmpty } from './store/fixtures.js';
import type { Fixtures } from './store/fixturesFile.js';

export interface DataDirectoryOptions {
  /** Directory of the SQLite file and the repositories; created when missing. */
  dataDir: string;
  /** A PostgreSQL database instead of the SQLite file under `dataDir` (store/database.ts). */
  databaseUrl?: string;
  /** Objects the API cannot create (users, tokens, groups, projects …), loaded into an empty database. */
  fixtures?: Fixtures;
  /** The areas whose fixtures hooks load `fixtures` (app.ts's FIXTURE_AREAS); needed with `fixtures`. */
  fixtureAreas?: readonly Area[];
  /** Names of the repository storages; the first is where new repositories go. */
  storageNames?: string[];
  /** How often the job queue polls when idle (default 100 ms). */
  jobPollIntervalMs?: number;
  /** Overrides of the instance settings (tier, limits) over the fixtures file's `instance` section. */
  instance?: Partial<InstanceSettings>;
  /**
   * Where prepared seeded data directories are kept (default: under the system's temporary directory);
   * `false` loads the fixtures into every new data directory instead.
   */
  dataTemplates?: string | false;
}

export async function openDataDirectory(options: DataDirectoryOptions): Promise<ServerContext> {
  const { fixtures, dataTemplates = DEFAULT_TEMPLATES_DIR } = options;
  // A template is a copy of a data directory: it holds a SQLite database, not a PostgreSQL one.
  const templated = dataTemplates !== false && !options.databaseUrl;
  if (fixtures && templated && (await isEmptyDirectory(options.dataDir))) {
    const key = await templateKey({
      fixtures,
      storageNames: options.storageNames,
      instance: options.instance,
    });
    await copyTemplate(options.dataDir, dataTemplates, key, async (directory) => {
      const seeded = await openDataDirectory({ ...options, dataDir: directory, dataTemplates: false });
      await seeded.db.destroy();
    });
  }
  await mkdir(options.dataDir, { recursive: true });
  const db = await openDatabase(options.dataDir, options.databaseUrl);
  const storages = new RepositoryStorages(options.dataDir, options.storageNames ?? ['default']);
  await storages.ensureDirectories();
  const context: ServerContext = {
    db,
    dataDir: options.dataDir,
    storages,
    jobs: new JobQueue(db, { pollIntervalMs: options.jobPollIntervalMs }),
    repositoryEvents: new RepositoryEvents(),
    instance: instanceSettings(options.fixtures?.instance, options.instance),
  };
  if (options.fixtures) {
    if (!options.fixtureAreas) throw new Error('fixtures given without the areas that load them');
    await loadFixturesIfEmpty(context, options.fixtures, options.fixtureAreas);
  }
  return context;
}
