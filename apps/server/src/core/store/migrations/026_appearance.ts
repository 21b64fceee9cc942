// The instance's appearance (document 2, 4.14; GitLab's `appearances`): at most one row, id 1, written by the
// first PUT /application/appearance; no row means GitLab's defaults. The images are files under the data
// directory (`uploads/-/system/appearance/<field>/1/<file name>`); a row keeps only their file names.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('appearance')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // File names of the stored images (null: none).
    .addColumn('logo', 'text')
    .addColumn('header_logo', 'text')
    .addColumn('favicon', 'text')
    .addColumn('new_project_guidelines', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('profile_image_guidelines', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('header_message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('footer_message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('message_background_color', 'text', (c) => c.notNull().defaultTo('#E75E40'))
    .addColumn('message_font_color', 'text', (c) => c.notNull().defaultTo('#FFFFFF'))
    .addColumn('email_header_and_footer_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('appearance').execute();
}
