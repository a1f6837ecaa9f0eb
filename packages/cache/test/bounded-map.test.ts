import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../src/bounded-map.js';

describe('BoundedMap', () => {
  it('keeps at most max entries, dropping the oldest inserted first and telling onEvict', () => {
    const evicted: Array<[number, string]> = [];
    const m = new BoundedMap<number, string>(3, (k, v) => evicted.push([k, v]));
    for (const k of [1, 2, 3, 4, 5]) m.set(k, `v${k}`);
    expect(m.size).toBe(3);
    expect([...m.keys()]).toEqual([3, 4, 5]);
    expect(evicted).toEqual([
      [1, 'v1'],
      [2, 'v2'],
    ]);
    // updating a present key neither evicts nor moves it
    m.set(3, 'again');
    expect([...m.keys()]).toEqual([3, 4, 5]);
    expect(m.has(3)).toBe(true);
    m.set(6, 'v6');
    expect(m.has(3)).toBe(false);
  });

  it('an entry read since its turn last came gets a second chance; one-off keys go first (CLOCK)', () => {
    const evicted: number[] = [];
    const m = new BoundedMap<number, string>(3, (k) => evicted.push(k));
    for (const k of [1, 2, 3]) m.set(k, `v${k}`);
    expect(m.get(1)).toBe('v1'); // hot
    m.set(4, 'v4');
    expect(evicted).toEqual([2]);
    // a hot key read between every insertion stays however many one-off keys pass through
    for (let k = 5; k < 100; k++) {
      expect(m.get(1)).toBe('v1');
      m.set(k, `v${k}`);
    }
    expect(m.has(1)).toBe(true);
    expect(m.size).toBe(3);
    // once no longer read, it goes on its next turn
    for (let k = 100; k < 104; k++) m.set(k, `v${k}`);
    expect(m.has(1)).toBe(false);
    // every entry read: a full turn clears the marks, then the oldest goes
    const all = new BoundedMap<number, number>(3);
    for (const k of [1, 2, 3]) all.set(k, k);
    for (const k of [1, 2, 3]) all.get(k);
    all.set(4, 4);
    expect([...all.keys()]).toEqual([2, 3, 4]);
    // a miss marks nothing
    expect(all.get(1)).toBeUndefined();
    all.set(5, 5);
    expect([...all.keys()]).toEqual([3, 4, 5]);
  });

  it('a deleted entry loses its mark; the queue stays bounded under reads and churn', () => {
    const m = new BoundedMap<number, number>(10);
    for (let i = 0; i < 50_000; i++) {
      m.set(i, i);
      m.get(i);
      if (i % 3 === 0) m.delete(i);
    }
    expect(m.size).toBe(10);
    const inner = m as unknown as { queue: unknown[]; head: number };
    expect(inner.queue.length - inner.head).toBeLessThanOrEqual(2 * 10 + 1024 + 1);

    // read, deleted and set again: no second chance left from before
    const n = new BoundedMap<string, number>(2);
    n.set('a', 1);
    n.get('a');
    n.delete('a');
    n.set('a', 2);
    n.set('b', 3);
    n.set('c', 4);
    expect([...n.keys()]).toEqual(['b', 'c']);
  });

  it('a deleted key is skipped at eviction; one deleted and set again is bounded like any other', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.delete('a');
    m.set('c', 3);
    expect([...m.keys()]).toEqual(['b', 'c']);
    m.delete('b');
    m.set('b', 4);
    m.set('d', 5);
    expect(m.size).toBe(2);
    expect(m.get('d')).toBe(5);
    m.clear();
    expect(m.size).toBe(0);
    m.set('e', 6);
    expect([...m.keys()]).toEqual(['e']);
  });

  it('values that are undefined are entries too', () => {
    const m = new BoundedMap<number, undefined>(2);
    m.set(1, undefined);
    m.set(2, undefined);
    m.set(3, undefined);
    expect([...m.keys()]).toEqual([2, 3]);
  });

  it('its bookkeeping stays bounded under set/delete churn that never fills it (no leak)', () => {
    const m = new BoundedMap<number, number>(10);
    for (let i = 0; i < 100_000; i++) {
      m.set(i, i);
      m.delete(i);
    }
    const queue = (m as unknown as { queue: unknown[]; head: number }).queue;
    expect(queue.length).toBeLessThanOrEqual(2 * 10 + 1024 + 1);
    for (let i = 0; i < 100_000; i++) m.set(i, i);
    expect(m.size).toBe(10);
    expect([...m.keys()]).toEqual(Array.from({ length: 10 }, (_, j) => 99_990 + j));
    expect((m as unknown as { queue: unknown[] }).queue.length).toBeLessThanOrEqual(2 * 10 + 1024 + 1);
  });
});
