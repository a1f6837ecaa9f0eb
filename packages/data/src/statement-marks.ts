/**
 * What the data layer tells the PostgreSQL connection about some statements, by their text: which run
 * as prepared statements, and which write logs alone. Statements are marked where they are written
 * (compiledStatement, a repository); the connection reads the marks (postgres/).
 */

/**
 * PostgreSQL: the statements run as named prepared statements on a connection
 * (`postgres/prepared-statements.ts`), each with its name: the compiled-once ones and those given to
 * prepareOnPostgres. They are the few statements every request runs, their plans do not depend on
 * their values (lookups by key, writes of given rows), and planning them is a large part of their
 * cost on the server. A statement reading `*` is left out: a column added while a process runs would
 * change its rows, which a prepared statement refuses.
 */
const preparedNames = new Map<string, string>();
/** a few per compiled-once query, from a few dozen queries: a bound that only a mistake reaches */
const MAX_PREPARED = 1000;
const READS_STAR = /(?:^|[\s,])(?:"?\w+"?\.)?\*(?=[\s,]|$)/;

/** Runs `sql` (a statement's whole text, fixed whatever its values) as a prepared statement on PostgreSQL. */
export function prepareOnPostgres(sql: string): void {
  if (preparedNames.has(sql) || preparedNames.size >= MAX_PREPARED || READS_STAR.test(sql)) return;
  preparedNames.set(sql, `readlib_${preparedNames.size + 1}`);
}

/** The name `sql` is prepared under on PostgreSQL, if it is one of those statements' text. */
export function preparedNameOf(sql: string): string | undefined {
  return preparedNames.get(sql);
}

/** Statements writing logs alone (no table readers keep, none the triggers notify for). */
const logsOnly = new Set<string>();

/**
 * `sql` writes logs alone (the search log and its counts): it moves no commit stamp, as no trigger
 * notifies other processes of it, so a search does not make the next request read the versions.
 */
export function writesLogsOnly(sql: string): void {
  logsOnly.add(sql);
}

export function isLogsOnly(sql: string): boolean {
  return logsOnly.has(sql);
}
