import { type Database, insertBook, type Writes } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logReaderSearch, SEARCH_LOGS_PENDING_MAX, search } from '../src/reader/search.service.js';
import { readerContext } from './context.js';

/** as long as work left to the event loop may take on a loaded machine (the wait ends when it is done) */
const SETTLED = { timeout: 10_000 };

const dialects = await testDialects();

/** Writes that hold every write until opened, then run them (and any later one) on `db`. */
function heldWrites(db: Kysely<Database>): Writes & { open(): void; hold(): void } {
  const held: Array<() => void> = [];
  let opened = false;
  return {
    run: (work) =>
      opened
        ? work(db)
        : new Promise((resolve, reject) => held.push(() => void work(db).then(resolve, reject))),
    drain: async () => {},
    open() {
      opened = true;
      for (const run of held.splice(0)) run();
    },
    hold() {
      opened = false;
    },
  };
}

const settledSoon = async (p: Promise<unknown>): Promise<boolean> => {
  let settled = false;
  void p.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 30));
  return settled;
};

// decisions.md §3: every search is logged; the answer does not wait for its line
describe.each(dialects)("a search's log line on $name", (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  const lines = async () =>
    (await h.db.selectFrom('search_log').select(['keyword', 'open_id']).execute()).map((r) => [
      r.keyword,
      r.open_id,
    ]);
  beforeEach(async () => {
    h = await dialect.create();
    await insertBook(h.db, sampleBook({ title: 'Zanzibar Tales' }), []);
  });
  afterEach(async () => h.destroy());

  it('is written after the answer: the search answers while its line waits, and the line commits once it runs', async () => {
    const writes = heldWrites(h.db);
    const ctx = readerContext(h.db, { writes });
    const answer = await search(ctx, { keyword: 'zanzibar', openId: 'reader-1' });
    expect(answer.book.map((b) => b.title)).toEqual(['Zanzibar Tales']);
    expect(await lines()).toEqual([]);
    writes.open();
    await vi.waitFor(async () => expect(await lines()).toEqual([['zanzibar', 'reader-1']]), SETTLED);
  });

  it(`makes the next search wait for its own line while ${SEARCH_LOGS_PENDING_MAX} lines wait`, async () => {
    const writes = heldWrites(h.db);
    const ctx = readerContext(h.db, { writes });
    const answered = Array.from({ length: SEARCH_LOGS_PENDING_MAX }, (_, i) =>
      logReaderSearch(ctx, `k${i % 7}`, null),
    );
    expect(await settledSoon(Promise.all(answered))).toBe(true);
    const next = logReaderSearch(ctx, 'one too many', null);
    expect(await settledSoon(next)).toBe(false);
    writes.open();
    await next;
    await vi.waitFor(async () => expect(await lines()).toHaveLength(SEARCH_LOGS_PENDING_MAX + 1), SETTLED);
    // every line committed: the count is back to none waiting, and a search answers before its line again
    writes.hold();
    expect(await settledSoon(logReaderSearch(ctx, 'again', null))).toBe(true);
    writes.open();
    await vi.waitFor(async () => expect(await lines()).toHaveLength(SEARCH_LOGS_PENDING_MAX + 2), SETTLED);
  });

  it(`fails with its own line while ${SEARCH_LOGS_PENDING_MAX} lines wait; the lines before it are reported`, async () => {
    let refuse = () => {};
    const refused = new Promise<never>((_, reject) => {
      refuse = () => reject(new Error('disk full'));
    });
    refused.catch(() => {});
    const reported: string[] = [];
    const ctx = readerContext(h.db, {
      writes: { run: () => refused, drain: async () => {} },
      reportError: (err, what) => reported.push(`${what}: ${(err as Error).message}`),
    });
    for (let i = 0; i < SEARCH_LOGS_PENDING_MAX; i++) await logReaderSearch(ctx, `k${i}`, null);
    const next = logReaderSearch(ctx, 'one too many', null);
    refuse();
    await expect(next).rejects.toThrow('disk full');
    await vi.waitFor(() => expect(reported).toHaveLength(SEARCH_LOGS_PENDING_MAX), SETTLED);
    expect(new Set(reported)).toEqual(new Set(['search not logged: disk full']));
  });

  it('does not fail the search when its line fails: the failure is reported', async () => {
    const reported: Array<[string, string]> = [];
    const ctx = readerContext(h.db, {
      writes: { run: async () => Promise.reject(new Error('disk full')), drain: async () => {} },
      reportError: (err, what) => reported.push([(err as Error).message, what]),
    });
    const answer = await search(ctx, { keyword: 'zanzibar' });
    expect(answer.book.map((b) => b.title)).toEqual(['Zanzibar Tales']);
    await vi.waitFor(() => expect(reported).toEqual([['disk full', 'search not logged']]), SETTLED);
  });
});
