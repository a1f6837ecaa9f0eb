import { describe, expect, it } from 'vitest';
import { Derived } from '../src/derived.js';
import { Keep } from '../src/keep.js';
import { Versions } from '../src/versions.js';

describe('Derived', () => {
  it('derives once per source object and names the versions of the keep it derives from', () => {
    const versions = new Versions(['catalog'] as const);
    new Keep(versions, { name: 'rows', key: 'id', dependsOn: ['catalog'], max: 10 });
    const json = new Derived<'catalog', { id: number }, string>(versions, 'rows, serialised', 'rows');
    let made = 0;
    const row = { id: 1 };
    const derive = (r: { id: number }) => {
      made++;
      return JSON.stringify(r);
    };
    expect(json.of(row, derive)).toBe('{"id":1}');
    expect(json.of(row, derive)).toBe('{"id":1}');
    // a changed row is a new object: derived anew
    expect(json.of({ id: 1 }, derive)).toBe('{"id":1}');
    expect(made).toBe(2);
    expect(versions.keeps.map((k) => [k.name, k.dependsOn])).toEqual([
      ['rows', ['catalog']],
      ['rows, serialised', ['catalog']],
    ]);
    expect(() => new Derived(versions, 'orphan', 'no such keep')).toThrow(/no keep named no such keep/);
  });
});
