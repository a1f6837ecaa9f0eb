import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseEpub } from '@readlib/epub';
import { makeEpub } from '@readlib/epub/testing';
import { bigEpub } from './lib/big-epub.js';
import { watchLoop } from './lib/loop-watch.js';
import { machine, writeResult } from './lib/report.js';

/**
 * pnpm --filter @readlib/bench run bench:parse [--mb 100] [--entries 4] [--entry-mb 127] [--runs 3]
 *
 * How long parsing one upload (the gate every upload and import passes: every entry inflated and
 * checked, then the book read) takes, and the longest it holds the event loop, for two large books read
 * from a file as the admin service reads them: ~`--mb` MiB of 4 MiB XHTML chapters, and `--entries`
 * non-XML entries of `--entry-mb` MiB (the largest an entry may be is 128 MiB).
 */
const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '100' },
    entries: { type: 'string', default: '4' },
    'entry-mb': { type: 'string', default: '127' },
    runs: { type: 'string', default: '3' },
  },
});
const MiB = 1024 * 1024;
const runs = Number(values.runs);

/**
 * ~40:1 deflate: 1,600 random bytes per 64 KiB block (under the 50:1 at which a whole archive is refused
 * as a zip bomb; 600 bytes per block, ~100:1, would be refused).
 */
function compressible(bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  for (let at = 0; at < bytes; at += 64 * 1024) randomBytes(1600).copy(out, at);
  return out;
}

const entryMb = Number(values['entry-mb']);
const books: Record<string, () => Buffer> = {
  [`${values.mb} MiB of XHTML chapters`]: () =>
    bigEpub('Parse bench', Number(values.mb), randomBytes(Math.ceil(Number(values.mb) * MiB * 1.05))),
  [`${values.entries} entries of ${entryMb} MiB`]: () =>
    makeEpub({
      title: 'Parse bench entries',
      extraEntries: Array.from({ length: Number(values.entries) }, (_, i) => ({
        name: `OEBPS/data/blob-${i}.bin`,
        data: compressible(entryMb * MiB),
      })),
    }),
};

const dir = mkdtempSync(join(tmpdir(), 'parse-bench-'));
const results = [];
for (const [book, make] of Object.entries(books)) {
  const path = join(dir, 'book.epub');
  const bytes = make();
  writeFileSync(path, bytes);
  await parseEpub(path);
  for (let i = 0; i < runs; i++) {
    const loop = watchLoop();
    const t = performance.now();
    await parseEpub(path);
    const ms = Math.round(performance.now() - t);
    results.push({ book, archiveMiB: Math.round(bytes.length / MiB), ms, loopMaxMs: await loop.stop() });
    console.log(JSON.stringify(results.at(-1)));
  }
}
rmSync(dir, { recursive: true, force: true });
writeResult('parse', { machine: machine(), runs: results });
