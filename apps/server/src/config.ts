// Reads the server's configuration from command-line flags and environment variables.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** A fixtures file, or `demo` for the demo data set. */
  seed: string | undefined;
  validateResponses: boolean;
  storageNames: string[];
  /** Server processes sharing the port (and the data directory); one of them also runs the jobs. */
  workers: number;
  /** Where to write the conformance suite's configuration for the seeded fixtures, once listening. */
  conformanceConfigPath: string | undefined;
}

export const DEMO_FIXTURES_PATH = new URL('../fixtures/demo.json', import.meta.url);

export function readConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      seed: { type: 'string' },
      'validate-responses': { type: 'boolean' },
      storages: { type: 'string' },
      workers: { type: 'string' },
      'write-conformance-config': { type: 'string' },
    },
    strict: true,
  });
  return {
    port: Number(values.port ?? env.PORT ?? 3000),
    host: values.host ?? env.HOST ?? '127.0.0.1',
    dataDir: values['data-dir'] ?? env.COLLAB_DATA_DIR ?? join(process.cwd(), 'data'),
    seed: values.seed ?? env.COLLAB_SEED,
    validateResponses: values['validate-responses'] ?? env.COLLAB_VALIDATE_RESPONSES === 'true',
    storageNames: (values.storages ?? env.COLLAB_STORAGES ?? 'default,secondary').split(',').filter(Boolean),
    workers: workerCount(values.workers ?? env.COLLAB_WORKERS),
    conformanceConfigPath: values['write-conformance-config'],
  };
}

/** One process per core by default, as a Node.js process serves requests on one core. */
function workerCount(value: string | undefined): number {
  if (value === undefined) return availableParallelism();
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`--workers must be a positive integer: ${value}`);
  return count;
}
