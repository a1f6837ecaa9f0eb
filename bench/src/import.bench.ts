import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { importAll } from '@readlib/cli';
import { createDb, migrateToLatest } from '@readlib/data';
import { FileStore } from '@readlib/epub';
import { makeEpub } from '@readlib/epub/testing';

// Bulk import of N generated EPUBs into a fresh SQLite database and store: books/second and peak RSS.
const { values } = parseArgs({ options: { books: { type: 'string', default: '1000' } } });
const n = Number(values.books);
const dir = mkdtempSync(join(tmpdir(), 'readlib-bench-'));
const handle = createDb({ dialect: 'sqlite', file: join(dir, 'bench.db') });
await migrateToLatest(handle.db);
const store = new FileStore(join(dir, 'store'));

const words = ['river', 'night', 'glass', 'mountain', 'letter', 'garden', '山', '海', '风', '月', '花', '雪'];
const sources = Array.from({ length: n }, (_, i) => ({
  name: `bench-${i}.epub`,
  load: async () =>
    makeEpub({
      version: i % 2 ? 2 : 3,
      title: `${words[i % words.length]} ${words[(i * 7) % words.length]} ${i}`,
      creators: [`Author ${i % 97}`],
      publisher: `Press ${i % 13}`,
      language: i % 3 ? 'en' : 'zh',
      subjects: ['Literature'],
      cover: i % 4 !== 0,
      chapters: Array.from({ length: 12 }, (_, c) => ({
        title: `Chapter ${c + 1}`,
        body: `<p>${'Lorem ipsum dolor sit amet. '.repeat(200)}</p>`,
      })),
    }),
}));

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const started = process.hrtime.bigint();
const summary = await importAll({ db: handle.db, store, limits: {} }, sources);
const secs = Number(process.hrtime.bigint() - started) / 1e9;
clearInterval(sampler);

console.log(
  JSON.stringify(
    {
      benchmark: 'bulk import (generated EPUB 2/3, 12 chapters, ~70 KB each, 3/4 with cover) into SQLite',
      machine: `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
      books: n,
      added: summary.added,
      failed: summary.failed.length,
      seconds: Number(secs.toFixed(2)),
      booksPerSecond: Number((summary.added / secs).toFixed(1)),
      peakRssMiB: Number((peak / 2 ** 20).toFixed(0)),
    },
    null,
    2,
  ),
);
await handle.destroy();
rmSync(dir, { recursive: true, force: true });
