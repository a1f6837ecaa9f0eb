import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isSafeStorePath } from '@readlib/epub';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialects, type Harness, harness } from './helpers.js';

const OPF = '<?xml version="1.0"?><package>0123456789abcdefghij</package>';

describe.each(dialects)('decisions.md §1 file store under /res/ on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
    const put = (rel: string, content: string) => {
      mkdirSync(dirname(join(t.storage, rel)), { recursive: true });
      writeFileSync(join(t.storage, rel), content);
    };
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
    expect(res.headers['content-security-policy']).toBe("script-src 'none'");
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
