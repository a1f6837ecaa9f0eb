import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { updateBook } from '@readlib/data';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOOK_PAGE_CSP } from '../src/routes/res/res.routes.js';
import { dialects, type Harness, harness, seedBook } from './helpers.js';

const EPUB_BYTES = Buffer.from('PK\u0003\u0004 not really a zip, but bytes to send');

// OPDS: what an app downloads from an acquisition link is an EPUB named by its title
describe.each(dialects)('stored EPUBs under /res/epub/ on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
    mkdirSync(join(t.storage, 'epub'), { recursive: true });
    mkdirSync(join(t.storage, 'img'), { recursive: true });
  });
  afterEach(async () => t.close());

  const store = (rel: string) => writeFileSync(join(t.storage, rel), EPUB_BYTES);

  it("answers application/epub+zip, saved under the book's title, keeping caching, CSP and ranges", async () => {
    const book = await seedBook(t, { title: '红楼梦', file_path: 'epub/hlm.epub', file_name: 'hlm' });
    store(book.file_path);
    const res = await t.app.inject(`/res/${book.file_path}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/epub+zip');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="hlm.epub"; filename*=UTF-8''%E7%BA%A2%E6%A5%BC%E6%A2%A6.epub`,
    );
    expect(res.headers['content-security-policy']).toBe(BOOK_PAGE_CSP);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.equals(EPUB_BYTES)).toBe(true);

    const part = await t.app.inject({ url: `/res/${book.file_path}`, headers: { range: 'bytes=0-3' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(EPUB_BYTES.subarray(0, 4))).toBe(true);
    expect(part.headers['content-disposition']).toBe(res.headers['content-disposition']);
    const head = await t.app.inject({ method: 'HEAD', url: `/res/${book.file_path}` });
    expect(head.headers['content-disposition']).toBe(res.headers['content-disposition']);
  });

  it('a renamed book downloads under its new title (any process: the catalogue version moved)', async () => {
    const book = await seedBook(t, {
      title: 'Old Name',
      file_path: 'epub/renamed.epub',
      file_name: 'renamed',
    });
    store(book.file_path);
    expect((await t.app.inject(`/res/${book.file_path}`)).headers['content-disposition']).toBe(
      'attachment; filename="Old Name.epub"',
    );
    await updateBook(t.h.db, book.file_name, { title: 'New Name' });
    expect((await t.app.inject(`/res/${book.file_path}`)).headers['content-disposition']).toBe(
      'attachment; filename="New Name.epub"',
    );
  });

  it('no name for other stored files, nor on a 404; an EPUB no book names is not served', async () => {
    store('epub/orphan.epub');
    store('img/cover.png');
    const orphan = await t.app.inject('/res/epub/orphan.epub');
    expect(orphan.statusCode).toBe(404);
    expect(orphan.json()).toMatchObject({ error_code: 1 });
    expect(orphan.headers['content-disposition']).toBeUndefined();
    const cover = await t.app.inject('/res/img/cover.png');
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-disposition']).toBeUndefined();
    const book = await seedBook(t, {
      title: 'Missing',
      file_path: 'epub/missing.epub',
      file_name: 'missing',
    });
    const missing = await t.app.inject(`/res/${book.file_path}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error_code: 1 });
    expect(missing.headers['content-disposition']).toBeUndefined();
  });
});
