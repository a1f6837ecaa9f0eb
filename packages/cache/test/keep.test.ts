import { describe, expect, it } from 'vitest';
import { Keep } from '../src/keep.js';
import { Versions } from '../src/versions.js';

type V = 'catalog' | 'commit' | 'clock';
const names: V[] = ['catalog', 'commit', 'clock'];

function setup(spec: Partial<ConstructorParameters<typeof Keep<V, number, string>>[1]> = {}) {
  const versions = new Versions<V>(names);
  versions.observe('catalog', 1);
  versions.observe('commit', 1);
  const keep = new Keep<V, number, string>(versions, {
    name: 'things',
    key: 'id',
    dependsOn: ['catalog'],
    max: 100,
    ...spec,
  });
  return { versions, keep };
}

describe('Keep', () => {
  it('reuses a value while no version it depends on moves, whatever else moves', () => {
    const { versions, keep } = setup();
    keep.set(1, 'one', versions.seen);
    versions.observe('commit', 2);
    versions.observe('clock', 7);
    expect(keep.get(1)).toBe('one');
    // the same value observed again is no move
    expect(versions.observe('catalog', 1)).toBe(false);
    expect(keep.get(1)).toBe('one');
    expect(versions.observe('catalog', 2)).toBe(true);
    expect(keep.get(1)).toBeUndefined();
  });

  it('does not keep a value read before a move of what it depends on', () => {
    const { versions, keep } = setup();
    const seen = versions.seen;
    versions.observe('catalog', 2);
    keep.set(1, 'read before the move', seen);
    expect(keep.get(1)).toBeUndefined();
    keep.set(1, 'read after', versions.seen);
    expect(keep.get(1)).toBe('read after');
  });

  it('a version that cannot be read (undefined) moves at every observation: nothing depending on it is reused', () => {
    const { versions, keep } = setup({ dependsOn: ['commit'] });
    versions.observe('commit', undefined);
    keep.set(1, 'one', versions.seen);
    expect(keep.get(1)).toBe('one');
    versions.observe('commit', undefined);
    expect(keep.get(1)).toBeUndefined();
  });

  it('a move naming its keys forgets only those where the keep is keyed by that version', () => {
    const { versions, keep } = setup({ keyedBy: 'catalog' });
    const plain = new Keep<V, number, string>(versions, {
      name: 'all',
      key: 'id',
      dependsOn: ['catalog'],
      max: 10,
    });
    for (const k of [1, 2, 3]) {
      keep.set(k, `v${k}`, versions.seen);
      plain.set(k, `v${k}`, versions.seen);
    }
    const before = versions.seen;
    versions.observe('catalog', 2, [2]);
    expect([keep.get(1), keep.get(2), keep.get(3)]).toEqual(['v1', undefined, 'v3']);
    expect([plain.get(1), plain.get(3)]).toEqual([undefined, undefined]);
    // still, a value read before the keyed move is not stored: it may be one the move named
    keep.set(4, 'read before', before);
    expect(keep.get(4)).toBeUndefined();
    // a keyed move with no keys (the log no longer covers it) concerns everything
    versions.observe('catalog', 3);
    expect(keep.get(1)).toBeUndefined();
  });

  it('a tagged value is reused only when asked with the same tag', () => {
    const { versions, keep } = setup();
    keep.set(1, 'with counts 3', versions.seen, '3');
    expect(keep.get(1, '3')).toBe('with counts 3');
    expect(keep.get(1, '4')).toBeUndefined();
    expect(keep.get(1)).toBeUndefined();
  });

  it('read: computes once for concurrent callers, keeps the value, and propagates errors without keeping them', async () => {
    const { versions, keep } = setup();
    let computed = 0;
    const compute = async () => {
      computed++;
      await new Promise((r) => setTimeout(r, 5));
      return 'v';
    };
    const seen = versions.seen;
    expect(await Promise.all([keep.read(1, seen, compute), keep.read(1, seen, compute)])).toEqual(['v', 'v']);
    expect(computed).toBe(1);
    expect(await keep.read(1, seen, compute)).toBe('v');
    expect(computed).toBe(1);
    await expect(keep.read(2, seen, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await keep.read(2, seen, compute)).toBe('v');
    expect(computed).toBe(2);
  });

  it('read: a computation begun before a move is not shared with callers after it', async () => {
    const { versions, keep } = setup();
    let release = (_v: string) => {};
    const slow = keep.read(1, versions.seen, () => new Promise<string>((r) => (release = r)));
    versions.observe('catalog', 2);
    const fresh = keep.read(1, versions.seen, async () => 'fresh');
    release('stale');
    expect(await slow).toBe('stale');
    expect(await fresh).toBe('fresh');
    expect(keep.get(1)).toBe('fresh');
  });

  it('is bounded by entries, or by weight, and keeps only what `keeps` allows', () => {
    const { versions, keep } = setup({ max: 2 });
    for (const k of [1, 2, 3]) keep.set(k, `v${k}`, versions.seen);
    expect(keep.size).toBe(2);
    const weighed = new Keep<V, number, string>(versions, {
      name: 'weighed',
      key: 'id',
      dependsOn: [],
      max: 10,
      weigh: (v) => v.length,
      unit: 'bytes',
    });
    weighed.set(1, 'abcd', versions.seen);
    weighed.set(2, 'abcd', versions.seen);
    weighed.set(3, 'abcd', versions.seen);
    expect([weighed.get(1), weighed.get(2), weighed.get(3)]).toEqual([undefined, 'abcd', 'abcd']);
    weighed.set(4, 'far too heavy for it', versions.seen);
    expect(weighed.get(4)).toBeUndefined();
    const picky = new Keep<V, number, string>(versions, {
      name: 'picky',
      key: 'id',
      dependsOn: [],
      max: 10,
      keeps: (v) => v.length < 3,
    });
    picky.set(1, 'ok', versions.seen);
    picky.set(1, 'too long', versions.seen);
    expect(picky.get(1)).toBeUndefined();
  });

  it('describes itself in the versions table, and refuses a version there is none of', () => {
    const { versions } = setup({ dependsOn: ['catalog', 'commit'], unit: 'rows' });
    expect(versions.keeps).toEqual([
      { name: 'things', key: 'id', dependsOn: ['catalog', 'commit'], max: 100, unit: 'rows' },
    ]);
    expect(
      () =>
        new Keep<string, number, string>(versions as Versions<string>, {
          name: 'x',
          key: 'k',
          dependsOn: ['nope'],
          max: 1,
        }),
    ).toThrow(/unknown version nope/);
  });
});
