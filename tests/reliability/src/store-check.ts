import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupExpiredUploads } from '@readlib/catalog';
import { createDb } from '@readlib/data';
import { FileStore } from '@readlib/epub';
import SQLite from 'better-sqlite3';

/** `pragma integrity_check` of a SQLite file, from a connection of our own ("ok" when sound). */
export function integrity(dbFile: string): string {
  const db = new SQLite(dbFile, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    return (db.pragma('integrity_check') as Array<{ integrity_check: string }>)
      .map((r) => r.integrity_check)
      .join('; ');
  } finally {
    db.close();
  }
}

export interface StoreReport {
  books: string[];
  /** books of the catalogue whose epub or unzip folder is missing */
  incomplete: string[];
  /** what the cleanup removed */
  cleanup: { expiredUploads: number; orphans: number; temp: number; failures: unknown[] };
  /** store names that are not books after the cleanup (must be empty) */
  orphansLeft: string[];
  tmpLeft: string[];
}

/**
 * Every book has its files; then the cleanup runs with no grace (uploads expired, orphans at once) and
 * whatever is left in the store must belong to a book.
 */
export async function checkStore(dbFile: string, storage: string): Promise<StoreReport> {
  const h = createDb({ dialect: 'sqlite', file: dbFile });
  try {
    const store = new FileStore(storage);
    const rows = await h.db.selectFrom('books').select(['file_name', 'file_path']).execute();
    const books = rows.map((r) => r.file_name);
    const incomplete: string[] = [];
    for (const r of rows) {
      if (!r.file_path) continue;
      const p = store.paths(r.file_name);
      if (!existsSync(p.epub) || !existsSync(p.unzip)) incomplete.push(r.file_name);
    }
    const cleanup = await cleanupExpiredUploads(h.db, store, Date.now() + 400 * 86_400_000, {
      orphanGraceMs: 0,
    });
    const names = await store.listFileNames();
    const set = new Set(books);
    const tmp = join(storage, '.tmp');
    return {
      books,
      incomplete,
      cleanup,
      orphansLeft: names.filter((n) => !set.has(n)),
      tmpLeft: existsSync(tmp) ? readdirSync(tmp) : [],
    };
  } finally {
    await h.destroy();
  }
}
