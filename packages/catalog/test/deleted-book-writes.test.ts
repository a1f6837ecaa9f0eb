import { AppError } from '@readlib/contracts';
import { countViews, deleteBook, insertBook, upsertUser, WriteBatcher, type Writes } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bookDetail, rateBook } from '../src/reader/book.service.js';
import type { ReaderContext } from '../src/reader/reader-context.js';
import { addToShelf } from '../src/reader/shelf.service.js';
import { readerContext } from './context.js';

const dialects = await testDialects();

// decisions.md §2: a book that is not there is 404 error_code 1, and 500 is kept for internal errors.
// An operator may delete a book between a reader request's read of it and its write, which must
// answer 404, not 500. Here the delete is made to
// fall exactly there: the write batcher deletes the book before it runs the request's write.
describe.each(dialects)("a reader's write to a book deleted meanwhile on $name", (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  let ctx: ReaderContext;
  let fileName: string;
  beforeEach(async () => {
    h = await dialect.create();
    fileName = (await insertBook(h.db, sampleBook(), [])).file_name;
    await upsertUser(h.db, { openId: 'reader-1' });
    const batcher = new WriteBatcher(h.db);
    const deletingFirst: Writes = {
      run: async (work) => {
        await deleteBook(h.db, fileName);
        return batcher.run(work);
      },
      drain: () => batcher.drain(),
    };
    ctx = readerContext(h.db, { writes: deletingFirst });
  });
  afterEach(async () => h.destroy());

  const expectBookNotFound = async (request: Promise<unknown>) => {
    const err = await request.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).kind).toBe('not_found');
    expect((err as AppError).message).toBe('book not found');
  };

  it('detail with an openId (its view) is the book not found, and records nothing', async () => {
    await expectBookNotFound(bookDetail(ctx, fileName, 'reader-1'));
    expect(await countViews(h.db)).toBe(0);
  });

  it('shelf save and rank save are the book not found', async () => {
    await expectBookNotFound(addToShelf(ctx, { openId: 'reader-1', fileName }));
    await insertBook(h.db, sampleBook({ file_name: fileName }), []);
    await expectBookNotFound(rateBook(ctx, { openId: 'reader-1', fileName, rank: 4 }));
  });
});
