// Users and personal access tokens made through the API (GitLab v4's POST /users and
// POST /users/:user_id/personal_access_tokens):
// - users: `confirmed_at` (an account made without `skip_confirmation` is unconfirmed; older rows were
//   confirmed when they were made) and `user_type` (null for people; `ghost` for the one account that takes
//   over the contributions of deleted users, as GitLab's "Ghost User").
// - personal_access_tokens: `created_at` (older rows take their user's), `last_used_at` and `description`.
// Usernames are unique ignoring case (GitLab compares them so): a unique index on their lower case replaces
// migration 019's plain one (the e-mail address has its lower-case index since migration 024).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('confirmed_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('user_type', 'text').execute();
  await sql`update users set confirmed_at = created_at`.execute(db);
  await sql`drop index if exists users_lower_username`.execute(db);
  await sql`create unique index users_lower_username on users (lower(username))`.execute(db);

  await db.schema.alterTable('personal_access_tokens').addColumn('created_at', 'text').execute();
  await db.schema.alterTable('personal_access_tokens').addColumn('last_used_at', 'text').execute();
  await db.schema.alterTable('personal_access_tokens').addColumn('description', 'text').execute();
  await sql`update personal_access_tokens set created_at =
    (select u.created_at from users u where u.id = personal_access_tokens.user_id)`.execute(db);
  await db.schema
    .createIndex('personal_access_tokens_user')
    .on('personal_access_tokens')
    .columns(['user_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('personal_access_tokens_user').execute();
  await db.schema.alterTable('personal_access_tokens').dropColumn('description').execute();
  await db.schema.alterTable('personal_access_tokens').dropColumn('last_used_at').execute();
  await db.schema.alterTable('personal_access_tokens').dropColumn('created_at').execute();
  await sql`drop index users_lower_username`.execute(db);
  await sql`create index users_lower_username on users (lower(username))`.execute(db);
  await db.schema.alterTable('users').dropColumn('user_type').execute();
  await db.schema.alterTable('users').dropColumn('confirmed_at').execute();
}
