import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';

/**
 * The one-connection dialect, for `:memory:` databases; files use SplitSqliteDialect, which begins its
 * transactions the same way. Kysely begins SQLite transactions with a plain (deferred) `begin`: the
 * write lock is taken at the first write. A transaction that reads first and then writes while the
 * other service process has committed in between cannot be helped by any wait (SQLITE_BUSY_SNAPSHOT:
 * its snapshot is stale), so every write transaction of ours begins `immediate`: it waits for the
 * write lock up front and never has to upgrade. Within one process transactions are serialised anyway.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
