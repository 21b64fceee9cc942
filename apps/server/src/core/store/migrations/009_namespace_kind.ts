// Namespaces of two kinds share the groups table, as GitLab's namespaces do (`type` Group or User): real
// groups, and a user's personal namespace (made on first use, by an import without `namespace`). Lists and
// searches of groups show only real groups.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('groups')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('group'))
    .execute();
}
