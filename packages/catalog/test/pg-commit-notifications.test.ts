import {
  createDb,
  type DbConfig,
  type DbHandle,
  insertBook,
  saveShelf,
  updateBook,
  upsertUser,
} from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bookDetail, planBookDetail, planShelf } from '../src/index.js';
import { readerContext, statementsOf } from './context.js';

// A reader on PostgreSQL whose handle listens for commits keeps its answers as a reader on SQLite
// does: no statement for a kept detail or shelf, and another process's change is answered once heard.
const postgres = (await testDialects()).find((d) => d.name === 'postgres');

const shelfOfO1 = async (ctx: ReturnType<typeof readerContext>) => (await planShelf(ctx, 'o1')).entries();

/** as long as a notification may take to arrive here */
const HEARD = { timeout: 15_000, interval: 10 };

describe.skipIf(!postgres)('a reader on PostgreSQL listening for commits', () => {
  let other: DbHandle & { config: DbConfig };
  let service: DbHandle | undefined;
  beforeEach(async () => {
    other = await postgres!.create();
  });
  afterEach(async () => {
    await service?.destroy();
    await other.destroy();
  });

  async function reader(listening: boolean) {
    service = createDb(other.config, listening ? { commitNotifications: {} } : {});
    await service.commitListener?.ready;
    return readerContext(service.db);
  }

  it('answers a kept detail and shelf without a statement, and sees another process commit once heard', async () => {
    const book = await insertBook(other.db, sampleBook({ title: 'Before' }), []);
    const user = await upsertUser(other.db, { openId: 'o1', platform: 'wx' });
    await saveShelf(other.db, user.id, book.id, 1);
    const ctx = await reader(true);
    await bookDetail(ctx, book.file_name);
    await shelfOfO1(ctx);
    // a detail's plan: the book, its counts and the versions (its readers are read with the answer, which
    // the route keeps by the plan's tag)
    expect(await statementsOf(service!.db, () => planBookDetail(ctx, book.file_name))).toEqual([]);
    expect(await statementsOf(service!.db, () => shelfOfO1(ctx))).toEqual([]);

    await updateBook(other.db, book.file_name, { title: 'After' });
    await vi.waitFor(async () => expect((await bookDetail(ctx, book.file_name)).title).toBe('After'), HEARD);
    const second = await insertBook(other.db, sampleBook({ title: 'Second' }), []);
    await saveShelf(other.db, user.id, second.id, 2);
    await vi.waitFor(async () => expect(await shelfOfO1(ctx)).toHaveLength(2), HEARD);
  });

  it('without listening it reads the versions at every request (what the notifications save)', async () => {
    const book = await insertBook(other.db, sampleBook(), []);
    const ctx = await reader(false);
    await bookDetail(ctx, book.file_name);
    expect((await statementsOf(service!.db, () => bookDetail(ctx, book.file_name))).length).toBeGreaterThan(
      0,
    );
  });
});
