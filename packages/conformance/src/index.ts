export { collect } from './collect.js';
export {
  type ConformanceConfig,
  configFromEnvironment,
  demoConfig,
  type FixtureUser,
  type Role,
  type UserRole,
} from './config.js';
export { type LocalServer, startLocalServer } from './localServer.js';
export { ResponseValidator } from './responseValidator.js';
export { RUN } from './run.js';
export { findOperation, loadSpecIndex } from './specIndex.js';
export { openTarget, type Target, targetFor } from './target.js';
export { ContractViolation, type Exchange, exchanges, validatingFetch } from './validatingFetch.js';
export { againstSuiteServer } from './warmServers.js';
