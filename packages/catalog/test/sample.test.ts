import { describe, expect, it } from 'vitest';
import { sampleFromLists } from '../src/reader/sample.js';

/** A seeded generator (mulberry32), so the statistical check below is repeatable. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// decisions.md §3 Home: `recommend` is drawn from the liked categories' books, never one on the shelf;
// the "another batch" buttons must see every pool member with equal chance.
describe('sampleFromLists (the home page recommendation draw)', () => {
  const lists = [
    [1, 2, 3, 4, 5],
    [6, 7],
    [8, 9, 10, 11, 12, 13, 14, 15],
  ];

  it('k distinct items of the lists, none excluded', () => {
    const random = seeded(7);
    for (let run = 0; run < 500; run++) {
      const picked = sampleFromLists(lists, 3, new Set([2, 7, 9]), random);
      expect(picked).toHaveLength(3);
      expect(new Set(picked).size).toBe(3);
      for (const id of picked) {
        expect(lists.flat()).toContain(id);
        expect([2, 7, 9]).not.toContain(id);
      }
    }
  });

  it('every eligible item equally likely, whichever list it is in', () => {
    const random = seeded(42);
    const counts = new Map<number, number>();
    const runs = 30_000;
    for (let run = 0; run < runs; run++) {
      for (const id of sampleFromLists(lists, 3, new Set([5]), random))
        counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    // 14 eligible items, 3 drawn per run: each expected 3/14 of the runs (±6%)
    expect(counts.size).toBe(14);
    for (const [, n] of counts) expect(Math.abs(n / runs - 3 / 14)).toBeLessThan(0.06 * (3 / 14));
  });

  it('fewer eligible items than k: all of them; nothing eligible or no lists: empty', () => {
    expect(sampleFromLists([[1, 2], [3]], 5, new Set([2])).sort()).toEqual([1, 3]);
    expect(sampleFromLists([[1, 2]], 3, new Set([1, 2]))).toEqual([]);
    expect(sampleFromLists([], 3, new Set())).toEqual([]);
    expect(sampleFromLists([[], []], 3, new Set())).toEqual([]);
  });

  it('most items excluded: still k, through the listed fallback', () => {
    const big = [Array.from({ length: 1000 }, (_, i) => i)];
    const exclude = new Set(big[0]!.filter((i) => i % 100 !== 0));
    const picked = sampleFromLists(big, 4, exclude, seeded(3));
    expect(picked).toHaveLength(4);
    for (const id of picked) expect(id % 100).toBe(0);
  });
});
