// Starts the server: reads the configuration, builds the app, listens, and says where everything is.
import { fileURLToPath } from 'node:url';
import { createApp } from './app.js';
import { DEMO_FIXTURES_PATH, readConfig } from './config.js';
import { readFixturesFile } from './store/fixtures.js';

const config = readConfig(process.argv.slice(2), process.env);
const fixturesPath = config.seed === 'demo' ? fileURLToPath(DEMO_FIXTURES_PATH) : config.seed;
const fixtures = fixturesPath ? await readFixturesFile(fixturesPath) : undefined;
const server = await createApp({
  dataDir: config.dataDir,
  fixtures,
  validateResponses: config.validateResponses,
  storageNames: config.storageNames,
});

const listener = server.app.listen(config.port, config.host, () => {
  const address = listener.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const origin = `http://${config.host}:${port}`;
  console.log(`Collab API listening on ${origin}/api/v4`);
  console.log(`Docs: ${origin}/docs   Spec: ${origin}/openapi.json`);
  console.log(`Data directory: ${config.dataDir}`);
  if (fixtures) {
    console.log('Tokens (PRIVATE-TOKEN header):');
    for (const user of fixtures.users) {
      for (const token of user.tokens.filter((t) => !t.revoked)) {
        console.log(`  ${user.username.padEnd(11)} ${token.scopes.join(',').padEnd(16)} ${token.token}`);
      }
    }
  }
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    listener.close();
    void server.close().then(() => process.exit(0));
  });
}
