import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanupExpiredUploads, importEpub } from '@readlib/catalog';
import { findBookByFileName, findToc } from '@readlib/data';
import { testDialects } from '@readlib/data/testing';
import { makeEpub, makeHostileZip } from '@readlib/epub/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, epubLimits } from '../src/index.js';
import { count, type Harness, harness, login, REAL_EPUB, upload } from './helpers.js';

const dialects = await testDialects();
const HOUR = 3_600_000;

/** What `rm` throws for a file owned by another user (tests run as root, whom no permission stops). */
const denied = (path: string) =>
  Object.assign(new Error(`EACCES: permission denied, unlink '${path}'`), {
    code: 'EACCES',
    syscall: 'unlink',
    path,
  });

/** The store of `t` failing to remove the books named. */
function failingRemoval(t: Harness, names: string[]): { attempts: string[] } {
  const attempts: string[] = [];
  const remove = t.store.removeBook.bind(t.store);
  t.store.removeBook = async (name: string) => {
    attempts.push(name);
    if (names.includes(name)) throw denied(join(t.root, 'unzip', name, 'OEBPS', 'chapter.xhtml'));
    return remove(name);
  };
  return { attempts };
}

describe.each(dialects)('decisions.md §4 Upload grace period and store cleanup on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect, { UPLOAD_GRACE_MINUTES: '60' });
  });
  afterEach(async () => t.close());

  it('removes expired pending uploads (row and files), keeps fresh ones and created books', async () => {
    const old = (await upload(t, makeEpub({ title: 'Old' }))).json().data.fileName;
    const kept = (await upload(t, makeEpub({ title: 'Created' }))).json().data.fileName;
    await t.app.inject({ method: 'POST', url: '/book/create', payload: { fileName: kept }, headers: t.auth });
    t.clock.now += 2 * HOUR;
    const fresh = (await upload(t, makeEpub({ title: 'Fresh' }))).json().data.fileName;

    const report = await cleanupExpiredUploads(t.h.db, t.store, t.clock.now);
    expect(report).toMatchObject({ expiredUploads: 1, orphans: 0 });
    expect(await t.store.hasBook(old)).toBe(false);
    expect(await t.store.hasBook(fresh)).toBe(true);
    expect(await t.store.hasBook(kept)).toBe(true);
    expect(
      (await t.h.db.selectFrom('uploads').select('file_name').execute()).map((r) => r.file_name),
    ).toEqual([fresh]);
    // an expired upload can no longer be created
    const late = await t.app.inject({
      method: 'POST',
      url: '/book/create',
      payload: { fileName: old },
      headers: t.auth,
    });
    expect(late.statusCode).toBe(400);
  });

  it('an upload past its grace cannot be created even before the sweep has run (404), and the sweep then removes it', async () => {
    const name = (await upload(t, makeEpub({ title: 'Late' }))).json().data.fileName;
    t.clock.now += 2 * HOUR;
    const late = await t.app.inject({
      method: 'POST',
      url: '/book/create',
      payload: { fileName: name },
      headers: t.auth,
    });
    expect([late.statusCode, late.json().code]).toEqual([404, -1]);
    expect(late.json().msg).toMatch(/expired/);
    expect(await findBookByFileName(t.h.db, name)).toBeUndefined();
    expect(await cleanupExpiredUploads(t.h.db, t.store, t.clock.now)).toMatchObject({ expiredUploads: 1 });
    expect(await t.store.hasBook(name)).toBe(false);
  });

  it('removes orphan store folders (neither a book nor a pending upload) once past their own grace', async () => {
    const buf = makeEpub({ title: 'Orphan' });
    await t.store.putBook('orphan-1', buf);
    const pending = (await upload(t, makeEpub({ title: 'Pending' }))).json().data.fileName;
    // just written: an import or upload may be about to insert its row
    expect((await cleanupExpiredUploads(t.h.db, t.store, Date.now())).orphans).toBe(0);
    expect(await t.store.hasBook('orphan-1')).toBe(true);
    const report = await cleanupExpiredUploads(t.h.db, t.store, Date.now() + HOUR / 2);
    expect(report.orphans).toBe(1);
    expect(await t.store.listFileNames()).toEqual([pending]);
  });

  it('a grace of 0 removes an orphan written this very moment, even one stamped ahead of the clock', async () => {
    await t.store.putBook('orphan-now', makeEpub({ title: 'Now' }));
    const report = await cleanupExpiredUploads(t.h.db, t.store, Date.now() - 1_000, { orphanGraceMs: 0 });
    expect(report.orphans).toBe(1);
    expect(await t.store.listFileNames()).toEqual([]);
  });

  it('an expired upload whose book was created meanwhile keeps its files', async () => {
    const name = (await upload(t, makeEpub({ title: 'Raced' }))).json().data.fileName;
    // simulate a create that inserted the book but crashed before removing the upload row
    const row = await t.h.db.selectFrom('uploads').selectAll().executeTakeFirstOrThrow();
    await t.app.inject({ method: 'POST', url: '/book/create', payload: { fileName: name }, headers: t.auth });
    await t.h.db
      .insertInto('uploads')
      .values({ ...row, id: undefined } as never)
      .execute();
    await cleanupExpiredUploads(t.h.db, t.store, t.clock.now + 2 * HOUR);
    expect(await t.store.hasBook(name)).toBe(true);
    expect(await count(t, 'uploads')).toBe(0);
  });
});

// A file the store cannot remove (owned by another user) must not stop the cleanup before the files
// after it, and a deletion that leaves one behind must say so in the log.
describe.each(dialects)('files the store cannot remove, on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect, { UPLOAD_GRACE_MINUTES: '60' });
  });
  afterEach(async () => t.close());

  it('the cleanup goes on past them and reports each once per run', async () => {
    for (const name of ['orphan_a', 'orphan_b', 'orphan_c'])
      await t.store.putBook(name, makeEpub({ title: name }));
    const stuck = (await upload(t, makeEpub({ title: 'Stuck upload' }))).json().data.fileName;
    const { attempts } = failingRemoval(t, ['orphan_a', stuck]);
    const report = await cleanupExpiredUploads(t.h.db, t.store, Date.now() + 2 * HOUR);
    expect(report).toMatchObject({ expiredUploads: 1, orphans: 2 });
    expect(report.failures).toEqual([
      {
        fileName: stuck,
        path: join(t.root, 'unzip', stuck, 'OEBPS', 'chapter.xhtml'),
        code: 'EACCES',
        error: expect.stringMatching(/^EACCES/),
      },
      {
        fileName: 'orphan_a',
        path: join(t.root, 'unzip', 'orphan_a', 'OEBPS', 'chapter.xhtml'),
        code: 'EACCES',
        error: expect.stringMatching(/^EACCES/),
      },
    ]);
    // the expired upload's files, an orphan once its row went, were not tried a second time
    expect(attempts.filter((n) => n === stuck)).toHaveLength(1);
    expect(await t.store.listFileNames()).toEqual(['orphan_a', stuck].sort());
    // the next run tries them again
    expect((await cleanupExpiredUploads(t.h.db, t.store, Date.now() + 2 * HOUR)).failures).toHaveLength(2);
  });

  it('GET /book/delete deletes the book (200) and logs a warn naming the path and the code', async () => {
    const name = (await upload(t, makeEpub({ title: 'Owned by root' }))).json().data.fileName;
    await t.app.inject({ method: 'POST', url: '/book/create', payload: { fileName: name }, headers: t.auth });
    failingRemoval(t, [name]);
    const warned: Array<{ fields: Record<string, unknown>; msg: string }> = [];
    const app = await buildApp(t.config, { db: t.h.db, store: t.store, logger: false });
    app.addHook('onRequest', async (req) => {
      req.log = Object.assign(Object.create(req.log), {
        warn: (fields: Record<string, unknown>, msg: string) => warned.push({ fields, msg }),
      });
    });
    try {
      const res = await app.inject({
        url: `/book/delete?fileName=${name}`,
        headers: { authorization: `Bearer ${await login(app)}` },
      });
      expect([res.statusCode, res.json().code]).toEqual([200, 0]);
      expect(await findBookByFileName(t.h.db, name)).toBeUndefined();
      expect(warned).toEqual([
        {
          fields: expect.objectContaining({
            fileName: name,
            path: join(t.root, 'unzip', name, 'OEBPS', 'chapter.xhtml'),
            code: 'EACCES',
          }),
          msg: expect.stringMatching(/^book deleted, its files not removed/),
        },
      ]);
    } finally {
      await app.close();
    }
  });
});

describe.each(dialects)('bulk import (importEpub) on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  it('adds a book with its contents, and the same bytes again are a duplicate no-op', async () => {
    const deps = { db: t.h.db, store: t.store, limits: epubLimits(t.config) };
    const buf = await readFile(REAL_EPUB('example-v3.epub'));
    const first = await importEpub(deps, buf, { originalName: 'example-v3.epub', category: 'Imported' });
    expect(first.status).toBe('added');
    expect(first.fileName).toMatch(/^b_[0-9a-f]{16}$/);
    const row = await findBookByFileName(t.h.db, first.fileName);
    expect(row).toMatchObject({ category_name: 'Imported', original_name: 'example-v3.epub' });
    expect((await findToc(t.h.db, row!.id)).length).toBeGreaterThan(0);
    expect(await t.store.hasBook(first.fileName)).toBe(true);
    expect(await importEpub(deps, buf)).toEqual({
      status: 'duplicate',
      fileName: first.fileName,
      title: first.title,
      why: 'same-file',
    });
    expect(await count(t, 'books')).toBe(1);
    // same title, author and publisher, different bytes: a duplicate of the catalogue book, nothing stored
    const meta = { title: 'Twice', creators: ['Ann Author'], publisher: 'Pub' };
    const a = await importEpub(deps, makeEpub({ ...meta, chapters: [{ title: 'One' }] }));
    const b = await importEpub(deps, makeEpub({ ...meta, chapters: [{ title: 'Two' }] }));
    expect([a.status, b.status]).toEqual(['added', 'duplicate']);
    expect(b.fileName).toBe(a.fileName);
    expect(b.why).toBe('same-title-author-publisher');
    expect(await t.store.listFileNames()).toEqual([first.fileName, a.fileName].sort());
    await expect(importEpub(deps, makeHostileZip('traversal'))).rejects.toMatchObject({
      kind: 'unsafe_archive',
    });
    await expect(importEpub(deps, Buffer.from('nope'))).rejects.toMatchObject({ kind: 'unsupported_media' });
  });

  it('removes the stored files when the insert fails', async () => {
    const deps = { db: t.h.db, store: t.store, limits: epubLimits(t.config) };
    await expect(importEpub(deps, makeEpub({ title: 'X' }), { category: '999' })).rejects.toMatchObject({
      kind: 'invalid',
    });
    await t.h.db.schema
      .dropTable('toc_entries')
      .cascade()
      .execute()
      .catch(() => t.h.db.schema.dropTable('toc_entries').execute());
    await expect(importEpub(deps, makeEpub({ title: 'Y' }))).rejects.toThrow();
    expect(await t.store.listFileNames()).toEqual([]);
  });
});
