import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, migrator, recordView } from '@readlib/data';
import { rng } from './lib/gen.js';
import { machine, writeResult } from './lib/report.js';

/**
 * pnpm --filter @readlib/bench run bench:readers --db .data/books-100000.db [--views 20000] [--rounds 3]
 *
 * A registered reader's first view of a book (recordView: the log row, the new book_readers row, the
 * book's counts), on two copies of a SQLite dataset: one taken back to before
 * `2026-11-24T1000-book-readers-by-user` (book_readers with a rowid, three indexes), one as it is
 * (WITHOUT ROWID keyed by (user_id, book_id), one index). Views of random (user, book) pairs, 32 per
 * transaction as the reader's group commit writes them, each round with its own pairs on both copies,
 * the copies taking turns. Prints µs per view, commits included.
 */
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: '.data/books-100000.db' },
    views: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
  },
});
const views = Number(values.views);
const BEFORE = '2026-11-23T1600-profile-version';

const dir = mkdtempSync(join(tmpdir(), 'readlib-readers-'));
function copy(name: string): string {
  const file = join(dir, `${name}.db`);
  copyFileSync(values.db, file);
  for (const ext of ['-wal', '-shm'])
    if (existsSync(values.db + ext)) copyFileSync(values.db + ext, file + ext);
  return file;
}

const copies = { before: copy('before'), after: copy('after') };
const migrated = createDb({ dialect: 'sqlite', file: copies.before });
const started = process.hrtime.bigint();
const { error } = await migrator(migrated.db).migrateTo(BEFORE);
if (error) throw error;
await migrated.destroy();
console.error(`taken back to ${BEFORE} in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`);

async function round(file: string, seed: number): Promise<number> {
  const h = createDb({ dialect: 'sqlite', file });
  const limits = await h.db
    .selectFrom('users')
    .select((eb) => eb.fn.max('id').as('users'))
    .executeTakeFirstOrThrow();
  const books = await h.db
    .selectFrom('books')
    .select((eb) => eb.fn.max('id').as('books'))
    .executeTakeFirstOrThrow();
  const r = rng(seed);
  const pick = (n: number) => 1 + Math.floor(r() * n);
  const now = Date.now();
  const start = process.hrtime.bigint();
  for (let done = 0; done < views; done += 32) {
    await h.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 32; i++)
        await recordView(trx, pick(Number(limits.users)), pick(Number(books.books)), now + done + i);
    });
  }
  const us = Number(process.hrtime.bigint() - start) / 1e3 / views;
  await h.destroy();
  return us;
}

const results: Record<'before' | 'after', number[]> = { before: [], after: [] };
for (let i = 0; i < Number(values.rounds); i++) {
  for (const which of ['before', 'after'] as const) {
    const us = await round(copies[which], 1000 + i);
    results[which].push(Number(us.toFixed(1)));
    console.error(`round ${i + 1} ${which}: ${us.toFixed(1)} µs per view`);
  }
}
rmSync(dir, { recursive: true, force: true });
const summary = { machine: machine(), db: values.db, views, ...results };
writeResult('readers', summary);
console.log(JSON.stringify(summary));
