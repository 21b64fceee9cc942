// Counts the changes of each project's repository, so that every server process on the same data directory
// can tell that its cached reads of that repository are out of date (RepositoryEvents bumps it).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('repository_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
