import { describe, expect, it } from 'vitest';
import { TextMatcher } from '../src/index.js';

// In-memory search of the popular facet values: it must answer as the substring indexes would
// (decisions.md §3 Search: substrings, case-insensitive, Latin and CJK, one and two characters too).
describe('TextMatcher', () => {
  const m = new TextMatcher([
    'Jane Austen',
    'AUSTEN House',
    '曹雪芹',
    'Ｍａｒｙ Ｓｈｅｌｌｅｙ',
    'Émile Zola',
    'Austen',
  ]);

  it('finds the texts containing a keyword, in order, at most `limit`', () => {
    expect(m.matches('austen', 10)).toEqual([0, 1, 5]);
    expect(m.matches('AUSTEN', 2)).toEqual([0, 1]);
    expect(m.matches('émile', 10)).toEqual([4]);
    expect(m.matches('nothing', 10)).toEqual([]);
  });

  it('counts a text once however often it contains the keyword, and never across two texts', () => {
    expect(new TextMatcher(['aaaa', 'bab', 'xa', 'ay']).matches('aa', 10)).toEqual([0]);
    expect(m.matches('en au', 10)).toEqual([]);
    expect(m.matches('austen\u0000', 10)).toEqual([]);
  });

  it('matches one and two characters as the gram index does (NFKC lower case, no white space)', () => {
    expect(m.matches('雪芹', 10)).toEqual([2]);
    expect(m.matches('ma', 10)).toEqual([3]);
    expect(m.matches('ｍａ', 10)).toEqual([3]);
    expect(m.matches('n ', 10)).toEqual([]);
  });

  it('matches longer keywords as the trigram index holds them: NFKC, case folded, stored or typed', () => {
    expect(m.matches('ｍａｒｙ', 10)).toEqual([3]);
    expect(m.matches('mary', 10)).toEqual([3]); // stored in full width, typed plainly
    expect(m.matches('ＡＵＳＴＥＮ', 10)).toEqual([0, 1, 5]); // typed in full width
    expect(m.matches('E\u0301mile', 10)).toEqual([4]); // typed decomposed
    expect(m.matches('ＡＵＳＴＥＮ', 2)).toEqual([0, 1]);
    // a ligature is two characters as typed, too short for the index, but its NFKC form is four
    expect(new TextMatcher(['office']).matches('oﬃ', 10)).toEqual([0]);
    expect(new TextMatcher(['ｏｆｆｉｃｅ ｆｕｌｌ', 'office']).matches('offi', 10)).toEqual([0, 1]);
  });
});
