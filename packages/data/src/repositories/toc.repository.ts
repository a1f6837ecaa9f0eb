import type { Db, NewTocEntry, TocEntry } from '../database.js';

export async function insertToc(db: Db, bookId: number, toc: NewTocEntry[]): Promise<void> {
  // chunks keep each statement under SQLite's bound-parameter limit
  for (let i = 0; i < toc.length; i += 500) {
    await db
      .insertInto('toc_entries')
      .values(toc.slice(i, i + 500).map((e) => ({ ...e, book_id: bookId })))
      .execute();
  }
}

export async function findToc(db: Db, bookId: number): Promise<TocEntry[]> {
  return db.selectFrom('toc_entries').selectAll().where('book_id', '=', bookId).orderBy('ord').execute();
}
