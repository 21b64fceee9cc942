// Operator command: makes a new SCIM token for a group (replacing its earlier one) and prints it. The group's
// single sign-on is turned on if it was off, as GitLab makes SCIM tokens only for groups with SAML SSO.
//
//   pnpm --filter @collab/server scim-token GROUP [--data-dir DIR]
//
// The token is stored as its SHA-256 only: this is the one time it is shown. A running server on the same
// data directory accepts it at once.
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { readConfig } from '../../config.js';
import { openDatabase } from '../../core/store/database.js';
import { ScimError } from './errors.js';
import { issueScimToken } from './service.js';

const USAGE = `Usage: scim-token GROUP [--data-dir DIR]

  GROUP           the full path of the group (acme, acme/platform)
  --data-dir DIR  the server's data directory (default: $COLLAB_DATA_DIR or ./data)`;

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const [groupPath, ...rest] = positionals;
  if (!groupPath || rest.length > 0) {
    console.error(`One GROUP is required\n\n${USAGE}`);
    return 2;
  }
  // The server's own configuration rules give the default data directory.
  const config = readConfig(values['data-dir'] ? ['--data-dir', values['data-dir']] : [], process.env);
  if (!(await stat(config.dataDir).catch(() => null))?.isDirectory()) {
    console.error(`No data directory at ${config.dataDir}`);
    return 1;
  }
  const db = await openDatabase(config.dataDir, config.databaseUrl);
  try {
    const { token, fullPath } = await issueScimToken({ db }, groupPath);
    console.log(`SCIM token of ${fullPath} (Authorization: Bearer, shown once):`);
    console.log(token);
    return 0;
  } catch (error) {
    console.error(error instanceof ScimError ? error.detail : error);
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
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
}

process.exitCode = await main(argv());

/** The arguments after the script's, without the `--` pnpm may pass through. */
function argv(): string[] {
  const args = process.argv.slice(2);
  return args[0] === '--' ? args.slice(1) : args;
}
