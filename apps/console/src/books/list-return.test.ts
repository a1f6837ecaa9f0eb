import { afterEach, describe, expect, it, vi } from 'vitest';
import { listLocation, listQueryOf, rememberList } from './list-return';

describe('the way back to the books list', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('returns to the list with the query it was left with', () => {
    const store = new Map<string, string>();
    vi.stubGlobal('sessionStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
    });
    expect(listLocation()).toEqual({ name: 'books', query: {} });
    rememberList({ sort: '+title', page: '2', title: ['Alice', 'Bob'], empty: null });
    expect(listLocation()).toEqual({ name: 'books', query: { sort: '+title', page: '2', title: 'Alice' } });
  });

  it('keeps only text values from what was stored, and survives no storage at all', () => {
    expect(listQueryOf({ page: 2, sort: '-id', x: { y: 1 } })).toEqual({ sort: '-id' });
    expect(listQueryOf('nonsense')).toEqual({});
    expect(listQueryOf(['a'])).toEqual({});
    vi.stubGlobal('sessionStorage', {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    });
    rememberList({ page: '3' });
    expect(listLocation()).toEqual({ name: 'books', query: {} });
  });
});
