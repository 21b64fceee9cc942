// The ordered list of schema migrations. Add a file `NNN_name.ts` and list it here; never edit an applied one.
import type { Migration, MigrationProvider } from 'kysely/migration';
import * as m001 from './001_initial.js';

const migrations: Record<string, Migration> = {
  '001_initial': m001,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
