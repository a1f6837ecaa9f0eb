import type { ShelfEntry, ShelfParam } from '@readlib/contracts';
import { findUserByOpenId, listShelf, removeShelf, saveShelf } from '@readlib/data';
import { toShelfEntry } from '../book.mapper.js';
import { findBook } from './book.service.js';
import { type ReaderContext, write } from './reader-context.js';
import { registeredUser } from './user.service.js';

/**
 * The user's shelf newest first, or with fileName the shelf status of that book ([] or [entry]).
 * An unregistered openId has an empty shelf; an unknown fileName is error_code 1.
 */
export async function getShelf(ctx: ReaderContext, openId: string, fileName?: string): Promise<ShelfEntry[]> {
  const book = fileName ? await findBook(ctx, fileName) : undefined;
  const user = await findUserByOpenId(ctx.db, openId);
  if (!user) return [];
  const rows = await listShelf(ctx.db, user.id, book ? { bookId: book.id } : {});
  return rows.map((r) => toShelfEntry(r, ctx.urls));
}

/** Idempotent: a book is on a shelf at most once. */
export async function addToShelf(ctx: ReaderContext, p: ShelfParam): Promise<void> {
  const user = await registeredUser(ctx, p.openId);
  const book = await findBook(ctx, p.fileName);
  await write(ctx, (db) => saveShelf(db, user.id, book.id, ctx.now()));
}

/** Removing a book that is not on the shelf succeeds. */
export async function removeFromShelf(ctx: ReaderContext, p: ShelfParam): Promise<void> {
  const user = await registeredUser(ctx, p.openId);
  const book = await findBook(ctx, p.fileName);
  await write(ctx, (db) => removeShelf(db, user.id, book.id));
}
