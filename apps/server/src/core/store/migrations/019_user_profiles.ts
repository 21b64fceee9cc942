// Users keep the profile and account settings the users API shows (GitLab's users and user_details columns):
// the public profile (bio, location, public e-mail, social accounts, organisation, job title, pronouns), the
// external and private-profile flags, what the user may create, and when the account last changed (the
// list's `order_by=updated_at`). Fixtures set them; the defaults are GitLab's. `username` is matched
// ignoring case (the list's `username` filter): an index on its lower case.
import { type Kysely, sql } from 'kysely';

const EMPTY_TEXT_COLUMNS = [
  'bio',
  'skype',
  'linkedin',
  'twitter',
  'discord',
  'website_url',
  'organization',
  'job_title',
] as const;
const NULLABLE_TEXT_COLUMNS = ['location', 'public_email', 'pronouns', 'updated_at'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of EMPTY_TEXT_COLUMNS) {
    await db.schema
      .alterTable('users')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  for (const column of NULLABLE_TEXT_COLUMNS) {
    await db.schema.alterTable('users').addColumn(column, 'text').execute();
  }
  await db.schema
    .alterTable('users')
    .addColumn('external', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('private_profile', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('can_create_group', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('projects_limit', 'integer', (c) => c.notNull().defaultTo(100000))
    .execute();
  await sql`update users set updated_at = created_at`.execute(db);
  await sql`create index users_lower_username on users (lower(username))`.execute(db);
}
