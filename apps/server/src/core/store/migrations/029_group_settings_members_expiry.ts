// Groups and members made through the API (issue 27):
// - the group settings `POST /groups` and `PUT /groups/:id` take, with GitLab's defaults for the rows that
//   exist (booleans 0 or 1; the three-state ones null when not set), and the file name of the group's avatar;
// - a membership's last day (`expires_at`, a date) and who made it (`created_by_id`, null for fixtures).
import type { Kysely } from 'kysely';

const GROUP_COLUMNS: [string, 'integer' | 'text', string | number | null][] = [
  ['share_with_group_lock', 'integer', 0],
  ['require_two_factor_authentication', 'integer', 0],
  ['two_factor_grace_period', 'integer', 48],
  ['project_creation_level', 'text', 'developer'],
  ['auto_devops_enabled', 'integer', null],
  ['subgroup_creation_level', 'text', 'maintainer'],
  ['emails_disabled', 'integer', null],
  ['mentions_disabled', 'integer', null],
  ['lfs_enabled', 'integer', 1],
  ['request_access_enabled', 'integer', 1],
  ['default_branch_protection', 'integer', 2],
  ['avatar', 'text', null],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type, fallback] of GROUP_COLUMNS) {
    await db.schema
      .alterTable('groups')
      .addColumn(name, type, (column) => (fallback === null ? column : column.notNull().defaultTo(fallback)))
      .execute();
  }
  await db.schema.alterTable('members').addColumn('expires_at', 'text').execute();
  await db.schema
    .alterTable('members')
    .addColumn('created_by_id', 'integer', (column) => column.references('users.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('members').dropColumn('created_by_id').execute();
  await db.schema.alterTable('members').dropColumn('expires_at').execute();
  for (const [name] of [...GROUP_COLUMNS].reverse())
    await db.schema.alterTable('groups').dropColumn(name).execute();
}
