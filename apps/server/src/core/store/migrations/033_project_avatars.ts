// The file name of a project's avatar (under `uploads/-/system/project/avatar/<id>/`), null without one
// (issue 26: GitLab's `avatar` of `POST /projects` and `PUT /projects/:id`).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('avatar', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('avatar').execute();
}
