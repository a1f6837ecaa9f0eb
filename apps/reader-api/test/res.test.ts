import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { FileStore, isSafeStorePath } from '@readlib/epub';
import { makeEpub, TINY_PNG } from '@readlib/epub/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOOK_PAGE_CSP } from '../src/routes/res/res.routes.js';
import { dialects, type Harness, harness, seedBook } from './helpers.js';

const OPF = '<?xml version="1.0"?><package>0123456789abcdefghij</package>';

describe.each(dialects)('decisions.md §1 file store under /res/ on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
    const put = (rel: string, content: string) => {
      mkdirSync(dirname(join(t.storage, rel)), { recursive: true });
      writeFileSync(join(t.storage, rel), content);
    };
    // files are served for the books of the catalogue (an upload not created yet is not public)
    await seedBook(t, { file_name: 'b1', file_path: 'epub/b1.epub', unzip_path: 'unzip/b1' });
    put('unzip/b1/OEBPS/content.opf', OPF);
    put('img/b1.png', 'png-bytes');
    put('.secret', 'HIDDEN-CONTENT');
    // a file next to the store that an escape would reach
    writeFileSync(join(dirname(t.storage), 'outside.txt'), 'OUTSIDE-CONTENT');
  });
  afterEach(async () => {
    rmSync(join(dirname(t.storage), 'outside.txt'), { force: true });
    await t.close();
  });

  it('serves a stored file with long immutable caching, ETag and a script-free CSP', async () => {
    const res = await t.app.inject('/res/unzip/b1/OEBPS/content.opf');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(OPF);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-security-policy']).toBe(BOOK_PAGE_CSP);
    expect(res.headers.etag).toBeTruthy();
    expect(res.headers['accept-ranges']).toBe('bytes');
    const again = await t.app.inject({
      url: '/res/unzip/b1/OEBPS/content.opf',
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers range requests with 206 and the slice', async () => {
    const res = await t.app.inject({
      url: '/res/unzip/b1/OEBPS/content.opf',
      headers: { range: 'bytes=0-4' },
    });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe(OPF.slice(0, 5));
    expect(res.headers['content-range']).toBe(`bytes 0-4/${OPF.length}`);
  });

  it('an unsatisfiable range is 416 with the size in Content-Range (RFC 9110 §15.5.17), in the envelope', async () => {
    const res = await t.app.inject({
      url: '/res/unzip/b1/OEBPS/content.opf',
      headers: { range: 'bytes=9999-' },
    });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${OPF.length}`);
    expect(res.json()).toMatchObject({ error_code: -1, msg: 'range not satisfiable' });
  });

  it.each(['bytes=abc', 'bytes=-', 'bytes=5-2', 'items=0-4', 'bytes=0-4,x'])(
    'a Range header that is not valid (%s) is ignored: the whole file (RFC 9110 §14.2)',
    async (range) => {
      const res = await t.app.inject({ url: '/res/unzip/b1/OEBPS/content.opf', headers: { range } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(OPF);
    },
  );

  it.each(['/res/', '/res/img/', '/res/unzip/b1/OEBPS/'])(
    'a folder is no file: 404 in the envelope, never a listing (%s)',
    async (url) => {
      const res = await t.app.inject(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error_code: 1 });
    },
  );

  it('serves names that need percent-encoding: `%`, `#`, `?` and non-ASCII, each from its encoded URL', async () => {
    for (const [name, url] of [
      ['100%.xhtml', '100%25.xhtml'],
      ['a#b.xhtml', 'a%23b.xhtml'],
      ['a?b.xhtml', 'a%3Fb.xhtml'],
      ['ü 1.xhtml', '%C3%BC%201.xhtml'],
    ] as const) {
      writeFileSync(join(t.storage, 'unzip/b1/OEBPS', name), `body of ${name}`);
      const res = await t.app.inject(`/res/unzip/b1/OEBPS/${url}`);
      expect(res.statusCode, name).toBe(200);
      expect(res.body).toBe(`body of ${name}`);
    }
  });

  it('a double-encoded `..` names a file of that name, never the parent folder', async () => {
    writeFileSync(join(t.storage, 'unzip/b1/%2e%2e'), 'LITERAL');
    const res = await t.app.inject('/res/unzip/b1/%252e%252e');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('LITERAL');
  });

  it('a suffix range longer than the file is the whole file as 206 (RFC 9110 §14.1.3); bytes=-0 stays 416', async () => {
    const url = '/res/unzip/b1/OEBPS/content.opf';
    for (const range of [
      `bytes=-${OPF.length}`,
      `bytes=-${OPF.length + 1}`,
      'bytes=-65536',
      'bytes=-9007199254740991',
    ]) {
      const res = await t.app.inject({ url, headers: { range } });
      expect(res.statusCode).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes 0-${OPF.length - 1}/${OPF.length}`);
      expect(res.body).toBe(OPF);
    }
    const tail = await t.app.inject({ url, headers: { range: 'bytes=-5' } });
    expect(tail).toMatchObject({ statusCode: 206, body: OPF.slice(-5) });
    expect((await t.app.inject({ url, headers: { range: 'bytes=-0' } })).statusCode).toBe(416);
  });

  it('a failed If-Match / If-Unmodified-Since is 412 in the envelope (RFC 9110 §13.1.1, §13.1.4)', async () => {
    const url = '/res/unzip/b1/OEBPS/content.opf';
    for (const headers of [
      { 'if-match': '"nope"' },
      { 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' },
    ]) {
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode).toBe(412);
      expect(res.json()).toEqual({ error_code: -1, msg: 'precondition failed' });
    }
  });

  it('If-Match compares strongly (RFC 9110 §13.1.1): the weak ETag of the very file is 412, `*` is 200', async () => {
    const url = '/res/unzip/b1/OEBPS/content.opf';
    const etag = (await t.app.inject(url)).headers.etag as string;
    for (const tag of [etag, etag.slice(2), `"x", ${etag}`]) {
      const res = await t.app.inject({ url, headers: { 'if-match': tag } });
      expect(res.statusCode, tag).toBe(412);
      expect(res.json()).toEqual({ error_code: -1, msg: 'precondition failed' });
    }
    const any = await t.app.inject({ url, headers: { 'if-match': '*' } });
    expect(any.statusCode).toBe(200);
    expect(any.body).toBe(OPF);
    expect((await t.app.inject({ url: '/res/img/none.png', headers: { 'if-match': etag } })).statusCode).toBe(
      404,
    );
  });

  it('If-Range with a weak ETag never matches (RFC 9110 §13.1.5): the whole file, 200', async () => {
    const url = '/res/unzip/b1/OEBPS/content.opf';
    const etag = (await t.app.inject(url)).headers.etag as string;
    expect(etag).toMatch(/^W\//);
    const res = await t.app.inject({ url, headers: { range: 'bytes=0-4', 'if-range': etag } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(OPF);
  });

  describe('compression, for readers with no proxy in front', () => {
    const page = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body>${'<p>A line of the book.</p>'.repeat(200)}</body></html>`;
    const url = '/res/unzip/b1/OEBPS/chapter1.xhtml';
    const write = (rel: string, content: string) => {
      mkdirSync(dirname(join(t.storage, rel)), { recursive: true });
      writeFileSync(join(t.storage, rel), content);
    };
    beforeEach(() => write('unzip/b1/OEBPS/chapter1.xhtml', page));

    it('a page goes brotli or gzip as accepted, with its type, weak ETag, caching and CSP, and Vary', async () => {
      const plain = await t.app.inject(url);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(page);
      const decoders = { br: brotliDecompressSync, gzip: gunzipSync } as const;
      for (const [accepted, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
      ] as const) {
        const res = await t.app.inject({ url, headers: { 'accept-encoding': accepted } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.rawPayload.length).toBeLessThan(page.length / 10);
        expect(decoders[encoding](res.rawPayload).toString()).toBe(page);
        for (const header of ['content-type', 'etag', 'cache-control', 'content-security-policy'])
          expect(res.headers[header], header).toBe(plain.headers[header]);
      }
      const again = await t.app.inject({
        url,
        headers: { 'accept-encoding': 'gzip', 'if-none-match': plain.headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    });

    it('every answer of a page varies by Accept-Encoding, also the plain copy and a range (a cache keeps them apart)', async () => {
      write('img/cover.png', 'p'.repeat(4096));
      const answers = {
        plain: await t.app.inject(url),
        identity: await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } }),
        range: await t.app.inject({ url, headers: { range: 'bytes=0-9', 'accept-encoding': 'gzip' } }),
        gzip: await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } }),
      };
      for (const [name, res] of Object.entries(answers)) {
        const vary = String(res.headers.vary ?? '')
          .split(/\s*,\s*/)
          .map((v) => v.toLowerCase());
        // once each, beside CORS's Origin
        expect([name, vary.filter((v) => v === 'accept-encoding').length]).toEqual([name, 1]);
        expect([name, vary.includes('origin')]).toEqual([name, true]);
      }
      // a picture is never compressed: nothing to vary by
      const picture = await t.app.inject({
        url: '/res/img/cover.png',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(String(picture.headers.vary ?? '')).not.toMatch(/accept-encoding/i);
    });

    it('a range is the slice of the plain page, 206; pictures, EPUBs and small errors go as they are', async () => {
      const range = await t.app.inject({ url, headers: { range: 'bytes=0-9', 'accept-encoding': 'gzip' } });
      expect(range.statusCode).toBe(206);
      expect(range.headers['content-encoding']).toBeUndefined();
      expect(range.body).toBe(page.slice(0, 10));
      write('img/cover.png', 'p'.repeat(4096));
      write('epub/b1.epub', 'z'.repeat(4096));
      for (const other of ['/res/img/cover.png', '/res/epub/b1.epub', '/res/img/none.png']) {
        const res = await t.app.inject({ url: other, headers: { 'accept-encoding': 'gzip, br' } });
        expect(res.headers['content-encoding'], other).toBeUndefined();
      }
      const opf = await t.app.inject({
        url: '/res/unzip/b1/OEBPS/content.opf',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(opf.headers['content-type']).toMatch(/^application\/oebps-package\+xml/);
      expect(gunzipSync(opf.rawPayload).toString()).toBe(OPF);
    });
  });

  it("a book's page runs no script, posts no form and is sandboxed (no meta refresh away), as nginx serves it too", () => {
    const directives = BOOK_PAGE_CSP.split(/\s*;\s*/);
    expect(directives).toContain("script-src 'none'");
    expect(directives).toContain("form-action 'none'");
    // a sandbox keeps automatic navigation out; its origin stays (allow-same-origin), scripts stay off
    const sandbox = directives.find((d) => d.startsWith('sandbox'))!.split(/\s+/);
    expect(sandbox).toContain('allow-same-origin');
    for (const flag of ['allow-scripts', 'allow-top-navigation', 'allow-forms'])
      expect(sandbox).not.toContain(flag);
    const site = readFileSync(
      fileURLToPath(new URL('../../../deploy/nginx/readlib.conf', import.meta.url)),
      'utf8',
    );
    const served = [...site.matchAll(/add_header Content-Security-Policy "([^"]+)"/g)].map((m) => m[1]);
    expect(served.length).toBeGreaterThan(0);
    for (const csp of served) expect(csp).toBe(BOOK_PAGE_CSP);
  });

  it('every answer under /res/ carries the script-free CSP, errors included; only files are cached', async () => {
    const answers = await Promise.all([
      t.app.inject('/res/img/none.png'),
      t.app.inject({ url: '/res/img/b1.png', headers: { range: 'bytes=999-' } }),
      t.app.inject({ url: '/res/img/b1.png', headers: { 'if-match': '"x"' } }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([404, 416, 412]);
    for (const res of answers) {
      expect(res.headers['content-security-policy']).toBe(BOOK_PAGE_CSP);
      expect(res.headers['cache-control'] ?? '').not.toMatch(/immutable/);
    }
  });

  it('a symlink loop and a FIFO in the store are 404, not a 500 or a request held open', async () => {
    symlinkSync('loop-b', join(t.storage, 'img', 'loop-a'));
    symlinkSync('loop-a', join(t.storage, 'img', 'loop-b'));
    execFileSync('mkfifo', [join(t.storage, 'img', 'pipe.png')]);
    for (const url of ['/res/img/loop-a', '/res/img/pipe.png']) {
      const res = await t.app.inject(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error_code: 1 });
    }
  });

  it('an upload no operator has created is not served: its EPUB and pages are 404 until its book is, its cover is', async () => {
    const store = new FileStore(t.storage);
    const stored = await store.putBook('pending_1', makeEpub({ title: 'Pending', cover: TINY_PNG }));
    const urls = [
      `/res/${stored.relative.epub}`,
      `/res/${stored.relative.unzip}/${stored.parsed.rootFile}`,
      `/res/${stored.relative.unzip}/${stored.parsed.contents[0]!.text}`,
    ];
    for (const url of urls) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error_code: 1 });
    }
    // the console shows an upload's cover before the book is created
    expect((await t.app.inject(`/res/${stored.relative.cover}`)).statusCode).toBe(200);
    await seedBook(t, {
      file_name: 'pending_1',
      file_path: stored.relative.epub,
      unzip_path: stored.relative.unzip,
    });
    for (const url of urls) expect((await t.app.inject(url)).statusCode, url).toBe(200);
  });

  it('a file of a book whose name starts with a dot is 404, as every dot-named path of the store', async () => {
    // EPUB allows such names but no producer references them; the store keeps .tmp (imports under way)
    // and .before-restore-<time> (a whole previous store) under dot names, and nginx refuses them alike
    writeFileSync(join(t.storage, 'unzip/b1/OEBPS/.style.css'), 'p { color: red }');
    for (const url of ['/res/unzip/b1/OEBPS/.style.css', '/res/unzip/b1/OEBPS/%2Estyle.css']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error_code: 1 });
    }
    expect((await t.app.inject('/res/unzip/b1/OEBPS/content.opf')).statusCode).toBe(200);
  });

  it('a missing file is 404 in the envelope', async () => {
    const res = await t.app.inject('/res/img/none.png');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error_code: 1 });
  });

  it.each([
    '/res/../outside.txt',
    '/res/img/../../outside.txt',
    '/res/%2e%2e/outside.txt',
    '/res/img/%2e%2e/%2e%2e/outside.txt',
    '/res/%252e%252e/outside.txt',
    '/res/..%2foutside.txt',
    '/res/..%5coutside.txt',
    '/res/img\\..\\..\\outside.txt',
    '/res/img/b1.png%00.txt',
    '/res/.secret',
    '/res/',
    '/res/unzip/b1/',
  ])('never leaves the store or lists it: %s', async (url) => {
    const res = await t.app.inject(url);
    expect([400, 404]).toContain(res.statusCode);
    expect(res.body).not.toContain('OUTSIDE-CONTENT');
    expect(res.body).not.toContain('HIDDEN-CONTENT');
    expect(res.json()).toHaveProperty('error_code');
  });

  it('is hidden from the OpenAPI document', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/res'))).toBe(false);
  });
});

describe('isSafeStorePath', () => {
  it('accepts plain store paths and refuses escapes', () => {
    expect(isSafeStorePath('/img/a.png')).toBe(true);
    expect(isSafeStorePath('/unzip/b/OEBPS/ch 1.xhtml')).toBe(true);
    // decoded once already: what is left is a literal name
    expect(isSafeStorePath('/unzip/b/100%.xhtml')).toBe(true);
    expect(isSafeStorePath('/%2e%2e/x')).toBe(true);
    for (const p of ['/../x', '/a/./b', '/a\\b', '/a\0b']) expect(isSafeStorePath(p), p).toBe(false);
  });
});
