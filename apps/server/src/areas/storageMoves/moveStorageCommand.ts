// Operator command: moves a project's repository to another configured storage.
//
//   tsx src/commands/moveStorage.ts --data-dir DIR --project ID_OR_PATH --to STORAGE [--storages a,b] [--run]
//
// It records the move (state `scheduled`) and queues its job in the data directory's database, where a
// running server picks it up. With --run the command carries the move out itself and waits for the end; the
// queued job stays behind (delayed) as a fallback that resumes the move if this process dies half-way.
// --run is meant for a stopped server: a running one keeps in-memory caches of the repositories it has read,
// and only the moves it carries out itself keep those exact.
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { readConfig } from '../../config.js';
import type { ServerContext } from '../../core/context.js';
import { RepositoryEvents } from '../../core/git/repositoryEvents.js';
import { RepositoryStorages } from '../../core/git/storages.js';
import { ApiError } from '../../core/http/errors.js';
import { DEFAULT_INSTANCE_SETTINGS } from '../../core/instance.js';
import { JobQueue } from '../../core/jobs/queue.js';
import { openDatabase } from '../../core/store/database.js';
import { runStorageMove } from './jobs.js';
import { scheduleStorageMove } from './service.js';

const USAGE = `Usage: move-storage --data-dir DIR --project ID_OR_PATH --to STORAGE [--storages a,b] [--run]

  --data-dir DIR        the server's data directory (default: $COLLAB_DATA_DIR or ./data)
  --project ID_OR_PATH  the project, by ID or full path (acme/website)
  --to STORAGE          the destination storage, one of the configured storages
  --storages a,b        the configured storages (default: $COLLAB_STORAGES or default,secondary)
  --run                 carry out the move now (when no server runs on this data directory)`;

/** How long the fallback job of a --run move waits before a server may resume the move. */
const RUN_FALLBACK_DELAY_MS = 10 * 60 * 1000;

async function main(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  try {
    ({ values } = parse(argv));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.project || !values.to) {
    console.error(`--project and --to are required\n\n${USAGE}`);
    return 2;
  }
  // The server's own configuration rules give the defaults, so the command sees the storages it sees.
  const config = readConfig(
    [
      ...(values['data-dir'] ? ['--data-dir', values['data-dir']] : []),
      ...(values.storages ? ['--storages', values.storages] : []),
    ],
    process.env,
  );
  if (!(await stat(config.dataDir).catch(() => null))?.isDirectory()) {
    console.error(`No data directory at ${config.dataDir}`);
    return 1;
  }

  const db = await openDatabase(config.dataDir, config.databaseUrl);
  const storages = new RepositoryStorages(config.dataDir, config.storageNames);
  // The queue is only used to enqueue: a running server (or the fallback) processes the job.
  const context: ServerContext = {
    db,
    dataDir: config.dataDir,
    storages,
    jobs: new JobQueue(db),
    repositoryEvents: new RepositoryEvents(),
    instance: DEFAULT_INSTANCE_SETTINGS,
  };
  try {
    await storages.ensureDirectories();
    const move = await scheduleStorageMove(context, values.project, values.to, {
      delayMs: values.run ? RUN_FALLBACK_DELAY_MS : 0,
    });
    console.log(
      `Storage move ${move.id} scheduled: ${move.project.path_with_namespace} (project ${move.project.id}) from ` +
        `${move.source_storage_name} to ${move.destination_storage_name}`,
    );
    if (!values.run) {
      console.log(
        'A server running on this data directory carries it out (GET /project_repository_storage_moves/:id).',
      );
      return 0;
    }
    const done = await runStorageMove(context, move.id);
    console.log(
      `Storage move ${move.id}: ${done?.state ?? 'missing'}${done?.error ? ` (${done.error})` : ''}`,
    );
    return done?.state === 'finished' ? 0 : 1;
  } catch (error) {
    console.error(error instanceof ApiError ? String(error.message) : error);
    return 1;
  } finally {
    await db.destroy();
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      storages: { type: 'string' },
      project: { type: 'string' },
      to: { type: 'string' },
      run: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
}

process.exitCode = await main(process.argv.slice(2));
