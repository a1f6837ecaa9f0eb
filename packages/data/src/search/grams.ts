/**
 * Keywords of one or two characters (a two-character Chinese name, say) cannot use a trigram index.
 * Each book therefore carries its distinct unigrams and bigrams per field, hex-encoded so that any
 * tokenizer (SQLite FTS5 unicode61, PostgreSQL string_to_array) sees them as plain alphanumeric words.
 */
export type GramField = 't' | 'a' | 'p';

export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

function hex(s: string): string {
  return Buffer.from(s, 'utf8').toString('hex');
}

export function gramToken(field: GramField, keyword: string): string {
  return field + hex(normalizeText(keyword));
}

function fieldGrams(field: GramField, text: string, out: Set<string>): void {
  const chars = Array.from(normalizeText(text));
  for (let i = 0; i < chars.length; i++) {
    const a = chars[i]!;
    if (/\s/u.test(a)) continue;
    out.add(field + hex(a));
    const b = chars[i + 1];
    if (b !== undefined && !/\s/u.test(b)) out.add(field + hex(a + b));
  }
}

/** The grams of one author or publisher value (the facet index), tokens as in bookGrams. */
export function valueGrams(field: 'author' | 'publisher', value: string): string {
  const out = new Set<string>();
  fieldGrams(field === 'author' ? 'a' : 'p', value, out);
  return [...out].join(' ');
}

type BookText = { title: string; author: string; publisher: string };

export function bookGrams(book: BookText): string {
  const out = new Set<string>();
  fieldGrams('t', book.title, out);
  fieldGrams('a', book.author, out);
  fieldGrams('p', book.publisher, out);
  return [...out].join(' ');
}

/** A text's NFKC form where it differs, else null: the trigram indexes read `coalesce(<col>_nfkc, <col>)`. */
export function nfkcOrNull(text: string): string | null {
  const folded = text.normalize('NFKC');
  return folded === text ? null : folded;
}

/** What a book row carries for its search indexes, derived from its title, author and publisher. */
export function bookSearchColumns(book: BookText) {
  return {
    grams: bookGrams(book),
    title_nfkc: nfkcOrNull(book.title),
    author_nfkc: nfkcOrNull(book.author),
    publisher_nfkc: nfkcOrNull(book.publisher),
  };
}

/** Short keywords go to the gram index; longer ones to the trigram index. */
export function isShortKeyword(keyword: string): boolean {
  return Array.from(normalizeText(keyword)).length < 3;
}
