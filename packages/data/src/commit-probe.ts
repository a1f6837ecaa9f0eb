import type SQLite from 'better-sqlite3';

const probes = new WeakMap<object, () => number | undefined>();

/**
 * Set by createDb for a SQLite file. `connection` must never write: SQLite's `data_version` moves for
 * every commit made by any other connection (this process's writer, the admin service, the CLI, a
 * checkpoint restarting the log) and never for the connection's own.
 */
export function setCommitProbe(db: object, connection: SQLite.Database): void {
  const stmt = connection.prepare('PRAGMA data_version').pluck();
  probes.set(db, () => (connection.open ? (stmt.get() as number) : undefined));
}

/**
 * A number that differs from any earlier one of `db` once anything has been committed to the database
 * since, by any process; undefined where the dialect tells nothing of the kind (PostgreSQL, an
 * in-memory database, a transaction). Reads made after taking it see at least what it stands for, so a
 * value read after taking stamp `s` is still the database's while `commitStamp(db) === s`: the check
 * costs ~2 µs where the read it saves costs ~15-20 µs through Kysely.
 */
export function commitStamp(db: object): number | undefined {
  return probes.get(db)?.();
}
