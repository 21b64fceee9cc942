export { type AppOptions, type CollabApp, createApp } from './app.js';
export { DEMO_FIXTURES_PATH } from './config.js';
export { keepConnectionsAlive } from './core/http/connections.js';
export { type Fixtures, readFixturesFile } from './core/store/fixturesFile.js';
