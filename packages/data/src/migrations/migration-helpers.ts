import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time with the migrations that use it: what a migration did must not change when the live
// code changes, so migrations import only kysely and this folder.

/** Whether the migration runs on PostgreSQL (else SQLite). */
// biome-ignore lint/suspicious/noExplicitAny: migrations see the database as it was, not as typed today
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The unigram and bigram tokens of an author or publisher value, as the 2026-11-22 facet index holds
 * them: NFKC, lower case, each distinct character and pair of characters not split by white space,
 * hex-encoded UTF-8, prefixed `a` (author) or `p` (publisher), joined by spaces.
 */
export function facetGrams(field: 'author' | 'publisher', value: string): string {
  const prefix = field === 'author' ? 'a' : 'p';
  const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
  const chars = Array.from(value.normalize('NFKC').toLowerCase());
  const out = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    const a = chars[i]!;
    if (/\s/u.test(a)) continue;
    out.add(prefix + hex(a));
    const b = chars[i + 1];
    if (b !== undefined && !/\s/u.test(b)) out.add(prefix + hex(a + b));
  }
  return [...out].join(' ');
}
