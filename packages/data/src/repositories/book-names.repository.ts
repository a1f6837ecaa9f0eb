import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/** Which of the given file names belong to catalogue books (store cleanup keeps those). */
export async function bookFileNamesIn(db: Kysely<Database>, names: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  // chunks keep each statement under SQLite's bound-parameter limit
  for (let i = 0; i < names.length; i += 500) {
    const rows = await db
      .selectFrom('books')
      .select('file_name')
      .where('file_name', 'in', names.slice(i, i + 500))
      .execute();
    for (const r of rows) found.add(r.file_name);
  }
  return found;
}
