import { describe, expect, it } from 'vitest';
import { CommitMemo, KEPT_SHELF_MAX_ENTRIES, KeptReads } from '../src/index.js';

// Issue: performance — values kept until the next commit (the stamps stand for SQLite's data_version).
describe('CommitMemo', () => {
  const counter = () => {
    let reads = 0;
    return {
      read: async () => ++reads,
      get reads() {
        return reads;
      },
    };
  };

  it('reads once per key while the stamp holds, and again once it moves', async () => {
    const memo = new CommitMemo<string, number>(10);
    const c = counter();
    expect(await memo.read('a', 7, c.read)).toBe(1);
    expect(await memo.read('a', 7, c.read)).toBe(1);
    expect(await memo.read('b', 7, c.read)).toBe(2);
    expect(await memo.read('a', 8, c.read)).toBe(3);
    expect(await memo.read('a', 8, c.read)).toBe(3);
    expect(c.reads).toBe(3);
  });

  it('without a stamp (PostgreSQL) reads every time and keeps nothing', async () => {
    const memo = new CommitMemo<string, number>(10);
    const c = counter();
    await memo.read('a', undefined, c.read);
    await memo.read('a', undefined, c.read);
    expect(c.reads).toBe(2);
    expect(await memo.read('a', 1, c.read)).toBe(3);
  });

  it('keeps only what the predicate allows, and forgets a key whose new value it refuses', async () => {
    const memo = new CommitMemo<string, number>(10, (v) => v < 3);
    const c = counter();
    await memo.read('a', 1, c.read); // 1: kept
    expect(await memo.read('a', 1, c.read)).toBe(1);
    await memo.read('a', 2, c.read); // 2: kept
    expect(await memo.read('a', 3, c.read)).toBe(3); // refused: the 2 kept at stamp 2 is forgotten
    expect(await memo.read('a', 3, c.read)).toBe(4);
    expect(await memo.read('a', 2, c.read)).toBe(5);
  });

  it('a reader’s shelf is kept up to KEPT_SHELF_MAX_ENTRIES entries', async () => {
    const kept = new KeptReads();
    const shelfOf = (n: number) => Array.from({ length: n }, (_, i) => ({ book_id: i, created_at: i }));
    let reads = 0;
    const read = (n: number) => async () => {
      reads++;
      return shelfOf(n);
    };
    await kept.shelves.read(1, 5, read(KEPT_SHELF_MAX_ENTRIES));
    await kept.shelves.read(1, 5, read(KEPT_SHELF_MAX_ENTRIES));
    expect(reads).toBe(1);
    await kept.shelves.read(2, 5, read(KEPT_SHELF_MAX_ENTRIES + 1));
    await kept.shelves.read(2, 5, read(KEPT_SHELF_MAX_ENTRIES + 1));
    expect(reads).toBe(3);
  });
});
