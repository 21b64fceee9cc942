// Pipelines: the pipeline rows, the jobs declared by the CI configuration (with their test reports) and the
// variables a pipeline was created with.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pipelines')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('before_sha', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('tag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('yaml_errors', 'text')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('committed_at', 'text')
    .addColumn('duration', 'integer')
    .addColumn('coverage', 'text')
    .execute();
  await sql`create index pipelines_project_id on pipelines (project_id, id)`.execute(db);
  await sql`create index pipelines_project_ref on pipelines (project_id, tag, ref)`.execute(db);

  await db.schema
    .createTable('pipeline_jobs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('pipeline_id', 'integer', (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('stage_index', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('duration_seconds', 'real', (c) => c.notNull())
    .addColumn('allow_failure', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('coverage', 'real')
    // JSON: the script lines (recorded, never executed) and the declared test suites (null when none).
    .addColumn('script', 'text', (c) => c.notNull())
    .addColumn('test_report', 'text')
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create index pipeline_jobs_pipeline on pipeline_jobs (pipeline_id, stage_index)`.execute(db);

  await db.schema
    .createTable('pipeline_variables')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('pipeline_id', 'integer', (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('variable_type', 'text', (c) => c.notNull())
    .addUniqueConstraint('pipeline_variables_pipeline_key', ['pipeline_id', 'key'])
    .execute();
}
