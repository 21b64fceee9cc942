// Epics of groups (document 2, 4.7; higher tier). An epic is numbered per group (`iid`) from a counter row
// per group and kind (group_internal_ids: internal_ids of migration 017 is keyed by project), taken in the
// creating transaction, so a deleted epic's iid is never given again. Its labels are issuable_labels rows
// (`issuable_type` `Epic`). Its dates are GitLab's composite dates: a fixed date and whether it applies
// (`*_is_fixed`), the date inherited from its child epics, and the effective date, kept in the row so lists
// read and sort it without walking the tree.
//
// award_emoji is GitLab's table of reactions to any object (`awardable_type` and `awardable_id`): the epic
// list's `my_reaction_emoji` filter and the `upvotes`/`downvotes` counts read it.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('group_internal_ids')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    // `epics`.
    .addColumn('usage', 'text', (c) => c.notNull())
    .addColumn('last_value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_internal_ids_pkey', ['group_id', 'usage'])
    .execute();

  await db.schema
    .createTable('epics')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    // A deleted parent leaves its children at the top (GitLab nullifies parent_id).
    .addColumn('parent_id', 'integer', (c) => c.references('epics.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // `opened` or `closed`.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('confidential', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    // Dates are `YYYY-MM-DD`. The effective start_date/end_date are the fixed ones when `*_is_fixed`, else
    // the inherited ones (the earliest start and the latest due date of the child epics).
    .addColumn('start_date_is_fixed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_date_fixed', 'text')
    .addColumn('start_date_inherited', 'text')
    .addColumn('start_date', 'text')
    .addColumn('due_date_is_fixed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('due_date_fixed', 'text')
    .addColumn('due_date_inherited', 'text')
    .addColumn('end_date', 'text')
    .addColumn('closed_at', 'text')
    .addColumn('closed_by_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('epics_group_iid', ['group_id', 'iid'])
    .execute();
  await sql`create index epics_group_created on epics (group_id, created_at)`.execute(db);
  await sql`create index epics_parent on epics (parent_id)`.execute(db);

  await db.schema
    .createTable('award_emoji')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // `Epic`, `Issue`, `MergeRequest`, `Note` ….
    .addColumn('awardable_type', 'text', (c) => c.notNull())
    .addColumn('awardable_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('award_emoji_once', ['awardable_type', 'awardable_id', 'user_id', 'name'])
    .execute();
  await sql`create index award_emoji_user on award_emoji (user_id, awardable_type)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('award_emoji').execute();
  await db.schema.dropTable('epics').execute();
  await db.schema.dropTable('group_internal_ids').execute();
}
