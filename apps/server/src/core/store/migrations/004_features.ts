// Feature flags: a feature and its gates (Flipper's model, as in GitLab). Scalar gates (`boolean`,
// `percentage_of_time`, `percentage_of_actors`) have one row; set gates (`actors`, `groups`) one row per member.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('features')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('feature_gates')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('feature_name', 'text', (c) => c.notNull().references('features.name').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addUniqueConstraint('feature_gates_feature_key_value', ['feature_name', 'key', 'value'])
    .execute();
}
