import { compiledOnce } from '../compiled-once.js';
import type { Db } from '../database.js';

// every random batch: built once per number of positions. One indexed lookup per position joined by
// `union all`, which SQLite runs faster than a bound `pos in (?, …)` list.
const idsAtPositions = compiledOnce((db, positions: readonly number[]) => {
  const at = (pos: number) => db.selectFrom('books').select(['id', 'pos']).where('pos', '=', pos);
  return positions.slice(1).reduce((q, pos) => q.unionAll(at(pos)), at(positions[0]!));
});

/** The number of books, kept in `counters` by every insert and delete (the dense positions' upper bound). */
export async function countBooks(db: Db): Promise<number> {
  const [row] = await booksCounter(db);
  if (!row) throw new Error('the books counter is missing');
  return Number(row.value);
}

// every admin list page without a filter, and the random draws: built once
const booksCounter = compiledOnce((db) =>
  db.selectFrom('counters').select('value').where('name', '=', 'books'),
);

/**
 * The ids of k books drawn uniformly without replacement: random dense positions, read from the unique
 * `pos` index alone. Never short while the catalogue has k books (minus the excluded ones). The caller
 * reads the rows, through the reader's catalogue memo where it has them: ids from the index cost a fraction of
 * whole rows.
 */
export async function randomBookIds(
  db: Db,
  k: number,
  exclude: ReadonlySet<number> = new Set(),
  /** the number of books when the caller already knows it (the reader's catalogue memo) */
  count?: number,
): Promise<number[]> {
  const n = count ?? (await countBooks(db));
  const want = Math.min(k, Math.max(0, n - exclude.size));
  const picked: number[] = [];
  const tried = new Set<number>();
  while (picked.length < want && tried.size < n) {
    const batch: number[] = [];
    while (batch.length < (want - picked.length) * 2 && tried.size < n) {
      const p = 1 + Math.floor(Math.random() * n);
      if (!tried.has(p)) {
        tried.add(p);
        batch.push(p);
      }
    }
    const rows = await idsAtPositions(db, batch);
    const byPos = new Map(rows.map((r) => [r.pos, r.id]));
    for (const p of batch) {
      const id = byPos.get(p);
      if (id !== undefined && !exclude.has(id) && picked.length < want) picked.push(id);
    }
  }
  return picked;
}
