import { type Database, optimizeSearchIndexes } from '@readlib/data';
import type { Kysely } from 'kysely';

/**
 * Books an import adds before it merges the search indexes: each import leaves its own index
 * segments, which every search then walks (optimizeSearchIndexes); the merge rewrites whole indexes,
 * worth it after a bulk import, not after a handful of books.
 */
export const OPTIMIZE_AFTER_ADDED = 100;

/** `pnpm cli optimize`, and the end of a bulk import: what was merged, in how long. */
export async function mergeSearchIndexes(db: Kysely<Database>): Promise<string> {
  const started = performance.now();
  const merged = await optimizeSearchIndexes(db);
  if (merged.length === 0) return 'search indexes: nothing to merge on PostgreSQL';
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  return `search indexes merged in ${secs} s: ${merged.join(', ')}`;
}
