import { type Compilable, CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { Database } from './database.js';
import { dialectOf } from './dialect.js';
import { prepareOnPostgres } from './statement-marks.js';

const MARK = '\u0000readlib-arg:';

/**
 * A hot query whose SQL is built once per dialect (and per length of each list argument). Kysely's
 * builder and compiler cost about as much CPU as running a short indexed query on SQLite, and the
 * reader runs several on every request. `build` is called once with marker
 * strings in place of the arguments (a list argument: a list of markers of its length); later calls
 * bind the real values in their places. So `build` must pass each argument through as bound values
 * only (a list: as an `in` list, each element once), never as anything the SQL text depends on or that
 * it inspects; the first call checks that every value became exactly one parameter.
 */
export function compiledOnce<A extends readonly unknown[], R>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, ...args: A) => Promise<R[]> {
  const run = compiledStatement(build);
  return async (db, ...args) => (await run(db, ...args)).rows;
}

type Slot = { arg: number; at?: number } | { value: unknown };
/** shapes kept per query: list arguments of many lengths would otherwise grow the map without bound */
const MAX_SHAPES = 64;

/** compiledOnce for writes: the whole result (`numAffectedRows` of an insert, update or upsert). */
export function compiledStatement<A extends readonly unknown[], R>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, ...args: A) => Promise<QueryResult<R>> {
  const compiled = new Map<string, { sql: string; slots: Slot[] }>();
  return async (db, ...args) => {
    const shape = `${dialectOf(db)}:${args.map((a) => (Array.isArray(a) ? a.length : '')).join()}`;
    let q = compiled.get(shape);
    if (!q) {
      q = compile(build, db, args);
      if (compiled.size < MAX_SHAPES) {
        compiled.set(shape, q);
        if (dialectOf(db) === 'postgres') prepareOnPostgres(q.sql);
      }
    }
    const parameters = q.slots.map((s) =>
      'arg' in s ? (s.at === undefined ? args[s.arg] : (args[s.arg] as unknown[])[s.at]) : s.value,
    );
    return db.executeQuery<R>(CompiledQuery.raw(q.sql, parameters));
  };
}

function compile<A extends readonly unknown[], R>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
  db: Kysely<Database>,
  args: A,
): { sql: string; slots: Slot[] } {
  const marks = args.map((a, i) =>
    Array.isArray(a) ? a.map((_, j) => `${MARK}${i}.${j}`) : `${MARK}${i}`,
  ) as unknown as A;
  const c = build(db, ...marks).compile();
  const slots = c.parameters.map((p): Slot => {
    if (typeof p !== 'string' || !p.startsWith(MARK)) return { value: p };
    const [arg, at] = p.slice(MARK.length).split('.');
    return at === undefined ? { arg: Number(arg) } : { arg: Number(arg), at: Number(at) };
  });
  const used = slots.flatMap((s) => ('arg' in s ? [`${s.arg}.${s.at ?? ''}`] : [])).sort();
  const wanted = args.flatMap((a, i) => (Array.isArray(a) ? a.map((_, j) => `${i}.${j}`) : [`${i}.`])).sort();
  if (used.join() !== wanted.join()) {
    throw new Error(`compiledOnce: each argument must become one bound parameter (${c.sql})`);
  }
  return { sql: c.sql, slots };
}
