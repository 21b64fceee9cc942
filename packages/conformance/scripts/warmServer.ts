// One warm server of a test run (started by scripts/warmServers.ts): this repository's server with the demo
// fixtures on a fresh data directory, as startLocalServer starts it. It prints where it listens as one JSON
// line, and stops (removing its data directory) when its standard input closes: when the global setup ends
// it, or when the test run dies.
import { startLocalServer } from '../src/localServer.js';

const server = await startLocalServer();
process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, dataDir: server.dataDir })}\n`);
process.stdin.resume();
process.stdin.once('close', () => {
  server.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`warm server: ${String(error)}\n`);
      process.exit(1);
    },
  );
});
