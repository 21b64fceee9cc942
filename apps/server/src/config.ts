// Reads the server's configuration from command-line flags and environment variables.
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
  };
}
