import type { DatabaseConfig } from './config.types.js';

// query parameters node-postgres reads a password from, besides the URL's own user:password@
const SECRET_PARAMS = ['password', 'sslpassword'];

/**
 * Where the database is, fit for a log line or an error: the SQLite file, or the PostgreSQL URL without
 * its password (DATABASE_URL is read from files operators paste into tickets).
 */
export function databaseLocation(database: DatabaseConfig): string {
  return database.dialect === 'sqlite' ? database.file : withoutPassword(database.url);
}

/** `SQLite /var/lib/readlib/library.db` or `PostgreSQL postgres://readlib@db:5432/readlib`. */
export function describeDatabase(database: DatabaseConfig): string {
  return `${database.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${databaseLocation(database)}`;
}

/**
 * The first failure met on the database (a refused connection, a database that does not exist, a
 * refused password), naming where it was looked for: the drivers' own words do not.
 */
export function unreachableDatabase(database: DatabaseConfig, err: unknown): Error {
  const verb = database.dialect === 'sqlite' ? 'open' : 'reach';
  return new Error(`cannot ${verb} the database at ${databaseLocation(database)}: ${errorText(err)}`, {
    cause: err,
  });
}

/**
 * An error's message on one line. Connecting to a name with several addresses (localhost: ::1 and
 * 127.0.0.1) fails with an AggregateError whose own message is empty: its errors' messages then.
 */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const inner = err instanceof AggregateError ? err.errors.map(errorText).filter(Boolean) : [];
  const text = err.message || inner.join('; ') || err.name;
  return text.replace(/\s*\n\s*/g, ' ');
}

function withoutPassword(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // a host-less form node-postgres takes (postgres://user:password@/db?host=/run/postgresql)
    return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1@');
  }
  parsed.password = '';
  // only when present: any change to searchParams re-encodes the whole query
  for (const name of SECRET_PARAMS) if (parsed.searchParams.has(name)) parsed.searchParams.delete(name);
  return parsed.toString();
}
