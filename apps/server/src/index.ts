export { type AppOptions, type CollabApp, createApp } from './app.js';
export { DEMO_FIXTURES_PATH } from './config.js';
export { type Fixtures, readFixturesFile } from './core/store/fixturesFile.js';
