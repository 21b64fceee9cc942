// Groups keep the one piece of state of theirs the API shows that no fixture sets: the runners registration
// token (a secret shown to the group's administrators), made on first read as GitLab's
// `ensure_runners_token!` does. The other group settings the API shows are GitLab's defaults, not stored.
// The group lists filter by parent and order by name or path: indexes for both.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('groups').addColumn('runners_token', 'text').execute();
  await sql`create index groups_parent_name on groups (parent_id, name)`.execute(db);
  await sql`create index groups_name on groups (name)`.execute(db);
  await sql`create index groups_path on groups (path)`.execute(db);
}
