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
  // pg's overloads; Kysely calls query(text, values)
  override query(...args: unknown[]): any {
    const [config, values, ...rest] = args;
    const name = typeof config === 'string' && Array.isArray(values) ? preparedNameOf(config) : undefined;
    if (name !== undefined) args = [{ name, text: config, values }, ...rest];
    return (super.query as (...a: unknown[]) => unknown)(...args);
  }
}
