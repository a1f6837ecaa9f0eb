import type { CompiledQuery, Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.js';

/** The statements `work` runs through `db`'s executor (either dialect), in the order they are sent. */
export async function statementsOf(db: Kysely<Database>, work: () => Promise<unknown>): Promise<string[]> {
  const executor = db.getExecutor() as unknown as { executeQuery: (q: CompiledQuery) => unknown };
  const original = executor.executeQuery;
  const sent: string[] = [];
  executor.executeQuery = function recorded(this: unknown, q: CompiledQuery) {
    sent.push(q.sql);
    return original.call(this, q);
  };
  try {
    await work();
  } finally {
    executor.executeQuery = original;
  }
  return sent;
}

/**
 * Every statement `work` sends to PostgreSQL through any pg client, with its parameters: what the
 * server receives, `begin` and `commit` included (they do not pass through Kysely's executor).
 */
export async function sentToPostgres(
  work: () => Promise<unknown>,
): Promise<Array<{ text: string; values: unknown[] }>> {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  const sent: Array<{ text: string; values: unknown[] }> = [];
  proto.query = function recorded(this: unknown, ...args: unknown[]) {
    const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    if (typeof config === 'string') sent.push({ text: config, values: values ?? [] });
    else if (config && typeof config === 'object' && 'text' in config)
      sent.push({ text: config.text, values: config.values ?? [] });
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  return sent;
}
