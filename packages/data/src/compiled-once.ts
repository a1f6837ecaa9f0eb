import { type Compilable, CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { Database } from './database.js';
import { type DialectName, dialectOf } from './dialect.js';

const MARK = '\u0000readlib-arg:';

/**
 * A hot query whose SQL is built once per dialect. Kysely's builder and compiler cost about 20 µs a
 * call on the reader's CPU, as much as running a short indexed query on SQLite, and the reader runs a
 * few such queries on every request. `build` is called once with marker strings in place of the
 * arguments; later calls bind the real arguments in their places. So `build` must pass each argument
 * through as a bound value only: never as an `in` list, a limit the SQL text depends on, or anything
 * it inspects (the first call checks that every argument became exactly one parameter).
 */
export function compiledOnce<A extends readonly unknown[], R>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, ...args: A) => Promise<R[]> {
  const run = compiledStatement(build);
  return async (db, ...args) => (await run(db, ...args)).rows;
}

/** compiledOnce for writes: the whole result (`numAffectedRows` of an insert, update or upsert). */
export function compiledStatement<A extends readonly unknown[], R>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, ...args: A) => Promise<QueryResult<R>> {
  type Slot = { arg: number } | { value: unknown };
  const compiled = new Map<DialectName, { sql: string; slots: Slot[] }>();
  return async (db, ...args) => {
    const dialect = dialectOf(db);
    let q = compiled.get(dialect);
    if (!q) {
      const marks = args.map((_, i) => `${MARK}${i}`) as unknown as A;
      const c = build(db, ...marks).compile();
      const slots = c.parameters.map(
        (p): Slot =>
          typeof p === 'string' && p.startsWith(MARK) ? { arg: Number(p.slice(MARK.length)) } : { value: p },
      );
      const used = slots
        .flatMap((s): number[] => ('arg' in s ? [s.arg as number] : []))
        .sort((a, b) => a - b);
      if (used.length !== args.length || used.some((a, i) => a !== i)) {
        throw new Error(`compiledOnce: each argument must become one bound parameter (${c.sql})`);
      }
      q = { sql: c.sql, slots };
      compiled.set(dialect, q);
    }
    const parameters = q.slots.map((s) => ('arg' in s ? args[s.arg] : s.value));
    return db.executeQuery<R>(CompiledQuery.raw(q.sql, parameters));
  };
}
