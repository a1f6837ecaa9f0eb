import pg from 'pg';
import { preparedNameOf } from '../statement-marks.js';

/**
 * A pg client that runs the compiled-once statements as named prepared statements: the server parses
 * and plans each once per connection instead of at every execution (planning was about half the
 * server's time for a registered reader's view). Every other statement is sent as before. pg prepares a
 * name on its first use on a connection and reuses it after; a pooler must keep a session's prepared
 * statements (PgBouncer 1.21 or newer with `max_prepared_statements`), or DATABASE_PREPARED_STATEMENTS
 * turns this off.
 */
export class PreparingClient extends pg.Client {
  /** statements this connection runs unprepared again: a migration changed their rows' types under them */
  private readonly stale = new Set<string>();

  // pg's overloads; Kysely calls query(text, values) and awaits the promise
  override query(...args: unknown[]): any {
    const [text, values, ...rest] = args;
    const name =
      typeof text === 'string' && Array.isArray(values) && rest.length === 0
        ? preparedNameOf(text)
        : undefined;
    const query = super.query as (...a: unknown[]) => Promise<unknown>;
    if (name === undefined || this.stale.has(name)) return query.apply(this, args);
    return query.call(this, { name, text, values }).catch((err: unknown) => {
      // a migration run while this process serves (an old replica during a rolling deploy) may change
      // the type of a column a prepared statement returns; the server then refuses that statement on
      // this connection for good. Outside a transaction it is sent again unprepared, and from now on.
      if (!changedUnder(err)) throw err;
      this.stale.add(name);
      return query.call(this, text, values);
    });
  }
}

function changedUnder(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '0A000' && /cached plan must not change result type/.test(String(e.message));
}
