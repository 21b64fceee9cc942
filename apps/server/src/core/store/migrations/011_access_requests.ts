// Pending requests to join a group or a project. Kept apart from `members` (GitLab keeps them there with a
// `requested_at`), so that no reader of memberships can mistake a requester for a member.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_requests')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('requested_at', 'text', (c) => c.notNull())
    // One request per user and source; it also serves the lists (by source, in id order within it).
    .addUniqueConstraint('access_requests_source_user', ['source_type', 'source_id', 'user_id'])
    .execute();
  await sql`create index access_requests_user on access_requests (user_id)`.execute(db);
}
