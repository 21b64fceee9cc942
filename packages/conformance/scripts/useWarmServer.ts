// Set-up of every test file that runs on its worker's warm server (vitest.config.ts): the file sees that
// server as a configured one (COLLAB_BASE_URL), as when the suite checks another server that other files and
// runs share. COLLAB_WARM_SERVER says it is this repository's server all the same (againstSuiteServer): the
// tests that read its data directory or start servers of their own run; those that need the demo data
// exactly as loaded skip themselves, and the files made of such tests run on fresh servers instead
// (FRESH_SERVER_FILES in vitest.config.ts). The files of a worker share their modules (`isolate: false`):
// each gets a run suffix of its own here, as a file that loads src/run.ts anew would.
import { renewRun } from '../src/run.js';
import { WARM_SERVER_ENV, warmServerOfThisWorker } from '../src/warmServers.js';

renewRun();

const warm = await warmServerOfThisWorker();
if (warm) {
  process.env.COLLAB_BASE_URL = warm.baseUrl;
  process.env[WARM_SERVER_ENV] = warm.baseUrl;
}
