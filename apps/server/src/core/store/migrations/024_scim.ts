// SCIM provisioning of groups (document 2, section 4.15): a group's single sign-on setting, the group's SCIM
// token (stored as its SHA-256, like personal access tokens), and the SSO identities the identity provider
// provisions (GitLab's saml_providers, scim_oauth_access_tokens and scim_identities).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('group_saml_providers')
    .addColumn('group_id', 'integer', (c) => c.primaryKey().references('groups.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    // The access level of provisioned members (GitLab's default_membership_role: Guest).
    .addColumn('default_membership_role', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('group_scim_tokens')
    .addColumn('group_id', 'integer', (c) => c.primaryKey().references('groups.id').onDelete('cascade'))
    .addColumn('token_sha256', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('scim_identities')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('extern_uid', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('scim_identities_group_user', ['group_id', 'user_id'])
    .execute();
  // External UIDs are unique per group whatever their case, and looked up the same way (as GitLab's
  // `with_extern_uid`); the list reads a group's identities in id order.
  await sql`create unique index scim_identities_group_extern_uid on scim_identities (group_id, lower(extern_uid))`.execute(
    db,
  );
  await sql`create index scim_identities_group_id on scim_identities (group_id, id)`.execute(db);
  // E-mails are compared without case when a user is provisioned (usernames have their index, 019).
  await sql`create index users_lower_email on users (lower(email))`.execute(db);
}
