import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseEpub } from '../src/index.js';
import { makeEpub, type RawZipEntry } from '../src/testing/index.js';
import { expectEpubError, turnsDuring } from './helpers.js';

// Entries over 1 MiB are checked off the event loop (spec: an upload must not stop the admin service
// answering; decisions.md limits): a 127 MiB entry inflated in place held it for about half a second.

const MiB = 1024 * 1024;
/** Text that deflates to ~75% (under the 200:1 ratio refused as a zip bomb). */
const text = (bytes: number) =>
  randomBytes(Math.ceil((bytes * 3) / 4))
    .toString('base64')
    .slice(0, bytes);
const chapter = (bytes: number) =>
  `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>${text(bytes)}</p></body></html>`;

/**
 * Random bytes behind a PNG signature: raw random bytes start like markup (`<` after white space, or
 * a UTF-16 byte-order mark) once in a few hundred runs, and markup is checked whatever its name.
 */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const binary = (bytes: number) => {
  const data = randomBytes(bytes);
  PNG.copy(data);
  return data;
};

const book = (extra: RawZipEntry[]) => makeEpub({ title: 'Large', extraEntries: extra });

describe('entries over 1 MiB', () => {
  it('are inflated and checked while the event loop keeps turning (XHTML and other entries)', async () => {
    for (const entry of [
      { name: 'OEBPS/big.xhtml', data: chapter(3 * MiB) },
      { name: 'OEBPS/img/big.bin', data: binary(3 * MiB) },
    ]) {
      const bytes = book([entry]);
      expect(await turnsDuring(() => parseEpub(bytes)), entry.name).toBeGreaterThan(0);
    }
  });

  it('inflating past the declared size is refused on both paths (ENTRY_TOO_LARGE)', async () => {
    for (const name of ['OEBPS/lying.xhtml', 'OEBPS/img/lying.bin']) {
      const data = name.endsWith('.xhtml') ? Buffer.from(chapter(2 * MiB)) : binary(2 * MiB);
      const lying = book([{ name, data, declaredSize: data.length - 4096 }]);
      await expectEpubError(parseEpub(lying), 'ENTRY_TOO_LARGE');
    }
  });

  it('a damaged large entry is refused on both paths (CORRUPT_ZIP)', async () => {
    for (const name of ['OEBPS/bad.xhtml', 'OEBPS/img/bad.bin']) {
      const data = name.endsWith('.xhtml') ? Buffer.from(chapter(2 * MiB)) : binary(2 * MiB);
      const bytes = book([{ name, data, method: 0 }]);
      // a byte in the middle of the stored entry: its CRC no longer matches
      const at = bytes.indexOf(data.subarray(0, 64)) + MiB;
      bytes[at] = bytes[at]! ^ 0xff;
      await expectEpubError(parseEpub(bytes), 'CORRUPT_ZIP');
    }
  });

  it('an XHTML entry of 96 MiB is checked in bounded memory, never held whole', async () => {
    // ~100 bytes of markup repeated: deflates to about 0.3 MB, so the ratio limits are lifted here
    const unit = '<p class="x" title=\'a > b\'>Lorem ipsum, "quoted" &amp; <!-- note --> text.</p>\n';
    const size = 96 * MiB;
    const data = Buffer.from(
      `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body>${unit.repeat(size / 128)}${' '.repeat(size - (size / 128) * unit.length - 100)}</body></html>`,
    );
    const bytes = book([{ name: 'OEBPS/huge.xhtml', data }]);
    const lifted = { maxCompressionRatio: 1e6, maxArchiveRatio: 1e6 };
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    const sample = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
    }, 2);
    try {
      await parseEpub(bytes, lifted);
    } finally {
      clearInterval(sample);
    }
    // reading it whole held at least its 96 MiB (+380 MB in the admin service); streamed, a few MiB
    expect(peak).toBeLessThan(size / 4);
    // and it is still read: a declaration at its very end is found
    data.write('<!ENTITY a "x">', data.length - 40);
    await expectEpubError(parseEpub(book([{ name: 'OEBPS/huge.xhtml', data }]), lifted), 'XML_DTD');
  });
});

describe('entries of up to 1 MiB', () => {
  // each is inflated in place: many of them must not hold the event loop from the first to the last
  it('many of them are checked while the event loop keeps turning', async () => {
    const small = Array.from({ length: 8 }, (_, i) => ({
      name: `OEBPS/part-${i}.xhtml`,
      data: chapter(MiB - 200),
    }));
    expect(await turnsDuring(() => parseEpub(book(small)))).toBeGreaterThan(0);
  });
});
