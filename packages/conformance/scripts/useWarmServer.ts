// Set-up of every test file that runs on its worker's warm server (vitest.config.ts): the file sees that
// server as a configured one (COLLAB_BASE_URL), exactly as when the suite checks another server that other
// files and runs share, so its tests that need a server of their own skip themselves, and those files run
// on fresh servers instead (FRESH_SERVER_FILES in vitest.config.ts).
import { warmServerOfThisWorker } from '../src/warmServers.js';

const warm = await warmServerOfThisWorker();
if (warm) process.env.COLLAB_BASE_URL = warm.baseUrl;
