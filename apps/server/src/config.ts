// Reads the server's configuration from command-line flags and environment variables.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** A PostgreSQL database (`postgres://…`) instead of the SQLite file under the data directory. */
  databaseUrl: string | undefined;
  /** A fixtures file, or `demo` for the demo data set. */
  seed: string | undefined;
  validateResponses: boolean;
  storageNames: string[];
  /** Server processes sharing the port (and the data directory); one of them also runs the jobs. */
  workers: number;
  /** Where to write the conformance suite's configuration for the seeded fixtures, once listening. */
  conformanceConfigPath: string | undefined;
  /** One line per answered request on standard output (core/http/accessLog.ts). */
  accessLog: boolean;
}

export const DEMO_FIXTURES_PATH = new URL('../fixtures/demo.json', import.meta.url);

/** What `--help` prints: every flag, the variable that sets it too, and its default. */
export const USAGE = `Usage: collab-server [flags]

Serves the Collab API at /api/v4 (SCIM at /api/scim/v2), the reference docs at /docs and the spec at
/openapi.json and /openapi.yaml.

Flags (each also set by the environment variable named; a flag wins over its variable):
  --port N                      PORT                       port to listen on (default 3000; 0 picks a free
                                                           port, which the start message prints)
  --host ADDRESS                HOST                       address to listen on (default 127.0.0.1)
  --data-dir DIR                COLLAB_DATA_DIR            database, repositories, uploads and outbox
                                                           (default ./data; made when missing)
  --database-url URL            DATABASE_URL               a PostgreSQL database (postgres://user:pass@host/db)
                                                           instead of the SQLite file in the data directory;
                                                           instances on one database share one data directory
                                                           and its jobs (each job runs on one of them); the
                                                           first to start migrates and seeds
  --seed demo|FILE              COLLAB_SEED                load fixtures into a new data directory: the demo
                                                           data set, or a fixtures file (JSON)
  --workers N                   COLLAB_WORKERS             server processes on the port (default one per
                                                           core); exactly one of them runs the jobs
  --storages A,B                COLLAB_STORAGES            repository storage names (default default,secondary)
  --validate-responses          COLLAB_VALIDATE_RESPONSES  validate every response against the spec (=true)
  --no-access-log               COLLAB_ACCESS_LOG          do not print the access log (one line per request:
                                                           time, method, path with tokens filtered, status,
                                                           duration; printed unless =false)
  --write-conformance-config FILE                          with --seed: write the collab-conformance
                                                           configuration (base URL, a token per role,
                                                           fixtures) for the seeded data, once listening
  --help                                                   print this and exit
`;

/** A command line or environment the server cannot start with: said in one line, without a stack. */
export class ConfigError extends Error {}

/** Whether the command line asks for the usage text (then nothing else is read). */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

export function readConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig {
  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(argv);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const { values } = parsed;
  const port = Number(values.port ?? env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`--port must be a port number from 0 to 65535: ${values.port ?? env.PORT}`);
  return {
    port,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    dataDir: values['data-dir'] ?? env.COLLAB_DATA_DIR ?? join(process.cwd(), 'data'),
    databaseUrl: databaseUrl(values['database-url'] ?? env.DATABASE_URL),
    seed: values.seed ?? env.COLLAB_SEED,
    validateResponses: values['validate-responses'] ?? env.COLLAB_VALIDATE_RESPONSES === 'true',
    storageNames: (values.storages ?? env.COLLAB_STORAGES ?? 'default,secondary').split(',').filter(Boolean),
    workers: workerCount(values.workers ?? env.COLLAB_WORKERS),
    conformanceConfigPath: values['write-conformance-config'],
    accessLog: !(values['no-access-log'] ?? false) && !['false', '0'].includes(env.COLLAB_ACCESS_LOG ?? ''),
  };
}

function parseFlags(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      seed: { type: 'string' },
      'validate-responses': { type: 'boolean' },
      storages: { type: 'string' },
      workers: { type: 'string' },
      'write-conformance-config': { type: 'string' },
      'no-access-log': { type: 'boolean' },
    },
    strict: true,
  });
}

/** One process per core by default, as a Node.js process serves requests on one core. */
function workerCount(value: string | undefined): number {
  if (value === undefined) return availableParallelism();
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new ConfigError(`--workers must be a positive integer: ${value}`);
  return count;
}

/** A PostgreSQL URL, or undefined (then the SQLite file); an empty variable counts as not set. */
function databaseUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^postgres(ql)?:\/\//.test(value))
    throw new ConfigError(`--database-url must be a postgres:// or postgresql:// URL: ${value}`);
  return value;
}
