// What every router and service of one running server shares.

import type { RepositoryEvents } from './git/repositoryEvents.js';
import type { RepositoryStorages } from './git/storages.js';
import type { InstanceSettings } from './instance.js';
import type { JobQueue } from './jobs/queue.js';
import type { Db } from './store/database.js';

export interface ServerContext {
  db: Db;
  dataDir: string;
  storages: RepositoryStorages;
  jobs: JobQueue;
  repositoryEvents: RepositoryEvents;
  /** The instance's tier and limits (core/instance.ts). */
  instance: InstanceSettings;
}
