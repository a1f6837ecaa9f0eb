import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStore, parseEpub } from '../src/index.js';
import { HOSTILE_KINDS, type HostileKind, makeEpub, makeHostileZip } from '../src/testing/index.js';
import { expectEpubError, listTree, tempRoot } from './helpers.js';

const kinds = Object.keys(HOSTILE_KINDS) as HostileKind[];

describe('hostile archives', () => {
  let root: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => ({ root, dispose } = await tempRoot()));
  afterEach(() => dispose());

  it.each(kinds)('%s is refused by parseEpub and by FileStore.putBook, leaving nothing', async (kind) => {
    const buf = makeHostileZip(kind);
    const code = HOSTILE_KINDS[kind];
    const err = await expectEpubError(parseEpub(buf), code);
    expect(err.message.length).toBeGreaterThan(10);

    const store = new FileStore(root);
    // putBook re-verifies on its own; the parsed result of a harmless book must not let a hostile one in.
    const harmless = await parseEpub(makeEpub({ cover: true }));
    await expectEpubError(store.putBook('book-1', buf, harmless), code);
    expect(await listTree(root)).toEqual([]);
    expect(await listTree(join(root, '.tmp'))).toEqual([]);
    expect(await store.hasBook('book-1')).toBe(false);
  });

  it.each(kinds)('%s is refused from a file path too (read entry by entry from disk)', async (kind) => {
    const file = join(root, `upload-${kind}.epub`);
    await writeFile(file, makeHostileZip(kind));
    const code = HOSTILE_KINDS[kind];
    await expectEpubError(parseEpub(file), code);
    const store = new FileStore(join(root, 'store'));
    await expectEpubError(store.putBook('book-1', file), code);
    expect(await listTree(join(root, 'store'))).toEqual([]);
    expect(await listTree(join(root, 'store', '.tmp'))).toEqual([]);
  });

  it('a book stored from a file path equals one stored from its bytes', async () => {
    // a chapter over 1 MiB goes through the streaming extraction; base64 keeps the ratio low
    const body = `<p>${randomBytes(1_200_000).toString('base64')}</p>`;
    const buf = makeEpub({ cover: true, chapters: [{ title: 'A', body }, { title: 'B' }] });
    const file = join(root, 'upload.epub');
    await writeFile(file, buf);
    expect(await parseEpub(file)).toEqual(await parseEpub(buf));
    const a = new FileStore(join(root, 'a'));
    const b = new FileStore(join(root, 'b'));
    await a.putBook('book-1', buf);
    await b.putBook('book-1', file);
    expect(await listTree(join(root, 'b'))).toEqual(await listTree(join(root, 'a')));
    expect(await readFile(join(root, 'b', 'epub', 'book-1.epub'))).toEqual(buf);
  });

  it('codes are distinct per class of attack', () => {
    expect(new Set(Object.values(HOSTILE_KINDS)).size).toBeGreaterThanOrEqual(11);
  });

  it('enforces configurable limits', async () => {
    const book = makeEpub({ chapters: [{ title: 'A', body: `<p>${'x'.repeat(5000)}</p>` }] });
    await expectEpubError(parseEpub(book, { maxEntries: 3 }), 'TOO_MANY_ENTRIES');
    await expectEpubError(parseEpub(book, { maxEntryUncompressed: 1000 }), 'ENTRY_TOO_LARGE');
    await expectEpubError(parseEpub(book, { maxTotalUncompressed: 2000 }), 'TOO_LARGE');
    await expectEpubError(parseEpub(book, { maxArchiveBytes: 100 }), 'TOO_LARGE');
    await expect(parseEpub(book)).resolves.toBeTruthy();
  });

  it('accepts a plain external DOCTYPE (every EPUB 2 NCX has one) but no internal subset', async () => {
    const ok = makeEpub({ version: 2 });
    expect((await parseEpub(ok)).tocSource).toBe('ncx');
    const sneaky = makeEpub({
      extraEntries: [
        { name: 'OEBPS/x.svg', data: '<?xml version="1.0"?><!DOCTYPE svg SYSTEM "x" [ ]><svg/>' },
      ],
    });
    await expectEpubError(parseEpub(sneaky), 'XML_DTD');
  });

  it('refuses DRM but accepts font obfuscation in META-INF/encryption.xml', async () => {
    const enc = (alg: string) =>
      `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="${alg}"/></enc:EncryptedData></encryption>`;
    const fonts = makeEpub({
      extraEntries: [{ name: 'META-INF/encryption.xml', data: enc('http://www.idpf.org/2008/embedding') }],
    });
    await expect(parseEpub(fonts)).resolves.toBeTruthy();
    const drm = makeEpub({
      extraEntries: [
        { name: 'META-INF/encryption.xml', data: enc('http://www.w3.org/2001/04/xmlenc#aes128-cbc') },
      ],
    });
    await expectEpubError(parseEpub(drm), 'ENCRYPTED');
  });
});
