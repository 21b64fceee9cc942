// The shared backend: a PostgreSQL database that several server instances (machines) use at once.
//
// The areas' queries were written for SQLite, whose write transactions run one at a time: a transaction reads,
// decides and writes, and nothing else writes meanwhile. The same holds here: every transaction takes one
// transaction-scoped advisory lock right after `begin` (what it needs, taken up front, before anything is
// read), so write transactions of all instances run one after the other while reads never wait. Statements
// outside a transaction are single statements, atomic on their own; a conditional update (the job claim)
// re-checks its condition after waiting for the row. A transaction that still fails on a serialization
// failure or a deadlock (40001, 40P01: only against a statement outside any transaction) is run again.
import {
  type AbortableOperationOptions,
  type ColumnDataType,
  type ColumnDefinitionNode,
  CompiledQuery,
  type DatabaseConnection,
  type DataTypeNode,
  type Driver,
  Kysely,
  type KyselyPlugin,
  type OperationNode,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresDriver,
  type QueryResult,
  type RootOperationNode,
  type TransactionBuilder,
  type TransactionSettings,
  type UnknownRow,
} from 'kysely';
import pg from 'pg';
import { LocalWrites, trackPostgresVersion } from './databaseVersion.js';
import type { Database } from './tables.js';

/** The advisory lock every write transaction takes first: the PostgreSQL side of SQLite's one writer. */
const WRITE_LOCK_KEY = 290_029;
/** How many times a transaction is run again after a serialization failure or a deadlock. */
const MAX_RETRIES = 20;

/** Opens a pool on the database at `url` behind Kysely; not yet migrated. */
export function openPostgres(url: string): { db: Kysely<Database>; afterMigration: () => void } {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // The schema's integers are 64-bit (bigint, below), and counts are bigint: read as numbers, as from
    // SQLite. Every value the API stores fits in a double's 53 bits.
    types: { getTypeParser: typeParser },
  });
  // A client whose server went away (PostgreSQL restarted, the session ended by an operator) emits an error:
  // an idle one on the pool, one the server holds (between a transaction's statements) on itself. Without a
  // listener either would end the process; the statement that uses the client next fails instead, the pool
  // drops the client and the next query opens a new connection.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const writes = new LocalWrites();
  const db = new RetryingKysely<Database>({
    dialect: new LockingPostgresDialect({ pool }, writes),
    plugins: [new PortableSchemaPlugin()],
  });
  return { db, afterMigration: () => trackPostgresVersion(db, writes, () => currentSnapshot(pool)) };
}

/**
 * The database's current snapshot, read as cheaply as a query goes, as nearly every request waits for one:
 * straight from the pool, by a statement each connection prepares once, its row as an array. For a query
 * this small, Kysely's path (a checkout, its plugins, the result's transformation) costs more than the query.
 */
const CURRENT_SNAPSHOT = {
  name: 'collab_current_snapshot',
  text: 'select pg_current_snapshot()::text',
  rowMode: 'array',
} as const;

async function currentSnapshot(pool: pg.Pool): Promise<string | undefined> {
  const { rows } = await pool.query<[string]>(CURRENT_SNAPSHOT);
  return rows[0]?.[0];
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

function typeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (oid === INT8_OID || oid === NUMERIC_OID) return Number;
  return pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
}

/** PostgreSQL's codes for "run the transaction again": serialization_failure and deadlock_detected. */
export function isSerializationFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

/** `db.transaction().execute(...)` runs the callback again when the transaction fails on a conflict. */
class RetryingKysely<DB> extends Kysely<DB> {
  override transaction(): TransactionBuilder<DB> {
    const builder = super.transaction();
    const execute = builder.execute.bind(builder);
    builder.execute = (callback) => retryConflicts(() => execute(callback));
    return builder;
  }
}

async function retryConflicts<T>(attempt: () => Promise<T>): Promise<T> {
  for (let retries = 0; ; retries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSerializationFailure(error) || retries >= MAX_RETRIES) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (retries + 1)));
  }
}

class LockingPostgresDialect extends PostgresDialect {
  constructor(
    private readonly settings: PostgresDialectConfig,
    private readonly writes: LocalWrites,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new LockingPostgresDriver(this.settings, this.writes);
  }
}

class LockingPostgresDriver extends PostgresDriver {
  constructor(
    settings: PostgresDialectConfig,
    private readonly writes: LocalWrites,
  ) {
    super(settings);
  }

  override async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    return new CountingWrites(new InRangeParameters(await super.acquireConnection(options)), this.writes);
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    let inner = connection;
    while (inner instanceof CountingWrites || inner instanceof InRangeParameters) inner = inner.inner;
    await super.releaseConnection(inner as Parameters<PostgresDriver['releaseConnection']>[0]);
  }

  override async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    if (connection instanceof CountingWrites) connection.changedRowsInTransaction = false;
    const lock = `select pg_advisory_xact_lock(${WRITE_LOCK_KEY})`;
    if (settings.isolationLevel || settings.accessMode) {
      await super.beginTransaction(connection, settings);
      await connection.executeQuery(CompiledQuery.raw(lock));
      return;
    }
    // One round trip for both: a query without parameters goes as one simple query, which may hold several
    // statements.
    await connection.executeQuery(CompiledQuery.raw(`begin; ${lock}`));
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.commitTransaction(connection);
    } finally {
      // What was read while the transaction was open is older than what it committed (databaseVersion.ts).
      if (connection instanceof CountingWrites && connection.changedRowsInTransaction) this.writes.bump();
    }
  }
}

/**
 * Counts this process's statements that changed rows (an insert, update or delete of at least one row), once
 * they have run, and tells the driver whether the open transaction changed any. A statement that changed
 * nothing (the job queue's claim of a job another instance took, a lease touched after its job ended)
 * leaves the caches be.
 */
class CountingWrites implements DatabaseConnection {
  changedRowsInTransaction = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly writes: LocalWrites,
  ) {}

  async executeQuery<R>(query: CompiledQuery, options?: AbortableOperationOptions): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query, options);
    if (result.numAffectedRows !== undefined && result.numAffectedRows > 0n) {
      this.changedRowsInTransaction = true;
      this.writes.bump();
    }
    return result;
  }

  streamQuery<R>(
    query: CompiledQuery,
    chunkSize: number,
    options?: AbortableOperationOptions,
  ): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery(query, chunkSize, options);
  }
}

/** The largest magnitude of a bigint: SQLite compares any number with an integer column, PostgreSQL not. */
const BIGINT_LIMIT = 9_223_372_036_854_775_807n;

/**
 * A connection whose parameters PostgreSQL takes as SQLite does:
 * - a number beyond a bigint (an ID of twenty digits) makes PostgreSQL fail the statement (22003) where SQLite
 *   compares it and finds nothing: it is sent as the nearest bigint instead, which compares the same way with
 *   every value the database holds (all within ±2^53);
 * - PostgreSQL's text cannot hold U+0000 (22021, "invalid byte sequence") where SQLite stores and compares it
 *   (`?sudo=%00`, a title with a NUL): it is sent as U+FFFD, the character that stands for one that cannot
 *   be represented, in writes and reads alike, so that what was written with one is found with it.
 */
class InRangeParameters implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery, options?: AbortableOperationOptions): Promise<QueryResult<R>> {
    return this.inner.executeQuery(inRange(query), options);
  }

  streamQuery<R>(
    query: CompiledQuery,
    chunkSize: number,
    options?: AbortableOperationOptions,
  ): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery(inRange(query), chunkSize, options);
  }
}

function inRange(query: CompiledQuery): CompiledQuery {
  if (!query.parameters.some((value) => outOfRange(value) || withNul(value))) return query;
  const parameters = query.parameters.map((value) => {
    if (outOfRange(value)) return (value > 0 ? BIGINT_LIMIT : -BIGINT_LIMIT).toString();
    if (withNul(value)) return value.replaceAll('\u0000', '\uFFFD');
    return value;
  });
  return { ...query, parameters };
}

function outOfRange(value: unknown): value is number {
  return typeof value === 'number' && Math.abs(value) >= 9.2e18;
}

function withNul(value: unknown): value is string {
  return typeof value === 'string' && value.includes('\u0000');
}

/**
 * The migrations' column types, written once for both backends, in PostgreSQL's words: `integer` is
 * SQLite's 64-bit integer (bigint), `real` its double, and an autoincrementing integer key a bigserial.
 */
class PortableSchemaPlugin implements KyselyPlugin {
  private readonly transformer = new PostgresColumnTypes();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const kind = args.node.kind;
    if (kind !== 'CreateTableNode' && kind !== 'AlterTableNode') return args.node;
    return this.transformer.transformNode(args.node, args.queryId);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const POSTGRES_TYPES: Partial<Record<ColumnDataType, ColumnDataType>> = {
  integer: 'bigint',
  real: 'double precision',
};

class PostgresColumnTypes extends OperationNodeTransformer {
  protected override transformColumnDefinition(node: ColumnDefinitionNode): ColumnDefinitionNode {
    const column = super.transformColumnDefinition(node);
    const dataType = column.dataType;
    if (!isDataType(dataType)) return column;
    const written = dataType.dataType;
    const type = column.autoIncrement ? 'bigserial' : (POSTGRES_TYPES[written] ?? written);
    if (type === written && !column.autoIncrement) return column;
    const postgresType: DataTypeNode = { ...dataType, dataType: type };
    return { ...column, autoIncrement: false, dataType: postgresType };
  }
}

function isDataType(node: OperationNode): node is DataTypeNode {
  return node.kind === 'DataTypeNode';
}
