import type { CompiledQuery, Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.js';

/** The statements `work` runs through `db`'s executor (either dialect), in the order they are sent. */
export async function statementsOf(db: Kysely<Database>, work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const executor = db.getExecutor() as unknown as { executeQuery: (q: CompiledQuery) => unknown };
  await whileRecording(executor, 'executeQuery', ([q]) => sent.push((q as CompiledQuery).sql), work);
  return sent;
}

/**
 * Every statement `work` sends to PostgreSQL through any pg client, with its parameters: what the
 * server receives, `begin` and `commit` included (they do not pass through Kysely's executor).
 */
export async function sentToPostgres(
  work: () => Promise<unknown>,
): Promise<Array<{ text: string; values: unknown[] }>> {
  const sent: Array<{ text: string; values: unknown[] }> = [];
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  await whileRecording(
    proto,
    'query',
    (args) => {
      const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
      if (typeof config === 'string') sent.push({ text: config, values: values ?? [] });
      else if (config && typeof config === 'object' && 'text' in config)
        sent.push({ text: config.text, values: config.values ?? [] });
    },
    work,
  );
  return sent;
}

/** Runs `work` with `target[method]` handing each call's arguments to `record` first; restores it after. */
async function whileRecording<K extends string>(
  target: Record<K, (...args: any[]) => unknown>,
  method: K,
  record: (args: unknown[]) => void,
  work: () => Promise<unknown>,
): Promise<void> {
  const original = target[method];
  target[method] = function recorded(this: unknown, ...args: unknown[]) {
    record(args);
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    target[method] = original;
  }
}
