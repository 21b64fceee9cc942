// Runs the whole suite the way someone checks another server: one server for every test file, reached by
// its URL (COLLAB_BASE_URL), the files one after the other. Here that server is this repository's, started
// with the demo fixtures; the tests that restart a local server skip themselves. Arguments are vitest's
// (`-- --exclude test/negative.test.ts` leaves a file out).
import { spawn } from 'node:child_process';
import { startLocalServer } from '../src/localServer.js';

const server = await startLocalServer();
const vitest = spawn('vitest', ['run', '--maxWorkers=1', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, COLLAB_BASE_URL: server.baseUrl },
});
const code: number = await new Promise((resolve) =>
  vitest.once('exit', (exitCode) => resolve(exitCode ?? 1)),
);
await server.close();
process.exit(code);
