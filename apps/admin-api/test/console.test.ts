import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { testConfig } from '@readlib/config';
import type { DbHandle } from '@readlib/data';
import { testDialects } from '@readlib/data/testing';
import type { App } from '@readlib/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index.js';
import { consoleCsp, defaultConsoleDir } from '../src/plugins/console.plugin.js';

const sqlite = (await testDialects()).find((d) => d.name === 'sqlite')!;
const INDEX =
  '<!doctype html><title>console</title><script type="module" src="/console/assets/app-1a2b3c.js"></script>';
const SCRIPT = 'console.log("console");';
/** A chunk the build compressed both ways, and one it compressed with gzip alone. */
const CHUNK = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `row ${i}`))};`;
const GZIP_ONLY = `export const words = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `word ${i}`))};`;

/** A console build as Vite writes it: index.html, hashed assets, a top-level file, and a dotfile. */
async function fakeBuild(dir: string): Promise<void> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(join(dir, 'index.html'), INDEX);
  await writeFile(join(dir, 'assets', 'app-1a2b3c.js'), SCRIPT);
  await writeFile(join(dir, 'assets', '.secret'), 'hidden');
  await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // as vite-plugin-compression2 writes them (apps/console/vite.config.ts): copies beside the file
  await writeFile(join(dir, 'assets', 'chunk-4d5e6f.js'), CHUNK);
  await writeFile(join(dir, 'assets', 'chunk-4d5e6f.js.br'), brotliCompressSync(CHUNK));
  await writeFile(join(dir, 'assets', 'chunk-4d5e6f.js.gz'), gzipSync(CHUNK));
  await writeFile(join(dir, 'assets', 'words-7a8b9c.js'), GZIP_ONLY);
  await writeFile(join(dir, 'assets', 'words-7a8b9c.js.gz'), gzipSync(GZIP_ONLY));
}

describe('the operator console at /console/ (issue #30)', () => {
  let h: DbHandle;
  let root: string;
  let app: App;
  let bare: App;
  beforeAll(async () => {
    h = await sqlite.create();
    root = await mkdtemp(join(tmpdir(), 'readlib-console-'));
    await fakeBuild(join(root, 'dist'));
    await mkdir(join(root, 'unbuilt'));
    const config = testConfig({
      STORAGE_DIR: join(root, 'store'),
      PUBLIC_BASE_URL: 'http://covers.test:3000',
    });
    app = await buildApp(config, { db: h.db, logger: false, consoleDir: join(root, 'dist') });
    bare = await buildApp(config, { db: h.db, logger: false, consoleDir: join(root, 'unbuilt') });
  });
  afterAll(async () => {
    await app.close();
    await bare.close();
    await h.destroy();
    await rm(root, { recursive: true, force: true });
  });

  it('serves index.html at /console/, never cached, under a strict CSP, without a token', async () => {
    const res = await app.inject({ method: 'GET', url: '/console/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toBe(consoleCsp('http://covers.test:3000'));
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    // covers come from the reader service's origin
    expect(csp).toMatch(/img-src 'self' data: http:\/\/covers\.test:3000(;|$)/);
    expect(csp).not.toContain('unsafe');
  });

  it('redirects /console to /console/, keeping the query', async () => {
    const res = await app.inject({ method: 'GET', url: '/console?x=1' });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/console/?x=1');
  });

  it("answers the console's own pages with index.html, for its router", async () => {
    for (const url of ['/console/books', '/console/books/b_1/edit', '/console/login?redirect=%2Fbooks']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('serves hashed assets for a year, immutable; a missing one is a 404 in the admin envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/console/assets/app-1a2b3c.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(SCRIPT);
    const head = await app.inject({ method: 'HEAD', url: '/console/assets/app-1a2b3c.js' });
    expect(head.statusCode).toBe(200);

    const missing = await app.inject({ method: 'GET', url: '/console/assets/gone-000000.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: -1 });
    const icon = await app.inject({ method: 'GET', url: '/console/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it("sends the build's compressed copies to a browser that accepts them, the file itself otherwise", async () => {
    const get = (url: string, encoding?: string) =>
      app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });
    const chunk = '/console/assets/chunk-4d5e6f.js';
    // what Chromium sends: brotli first
    const br = await get(chunk, 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(CHUNK);
    expect(Number(br.headers['content-length'])).toBeLessThan(CHUNK.length / 2);
    const gz = await get(chunk, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(CHUNK);
    for (const encoding of [undefined, 'identity', 'compress']) {
      const plain = await get(chunk, encoding);
      expect(plain.headers['content-encoding'], encoding).toBeUndefined();
      expect(plain.body, encoding).toBe(CHUNK);
    }
    // the headers of the file, whichever copy is sent; caches keep one per encoding
    for (const res of [br, gz, await get(chunk)]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.headers['content-security-policy']).toBe(consoleCsp('http://covers.test:3000'));
    }
    // a file without a brotli copy: its gzip copy to a browser taking both
    const words = await get('/console/assets/words-7a8b9c.js', 'gzip, deflate, br');
    expect(words.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(words.rawPayload).toString()).toBe(GZIP_ONLY);
    // a file the build did not compress (too small): as it is
    const small = await get('/console/assets/app-1a2b3c.js', 'gzip, deflate, br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe(SCRIPT);
  });

  it('never serves a file outside the build, nor a dotfile', async () => {
    const outside = join(root, 'outside.txt');
    await writeFile(outside, 'not for the browser');
    for (const url of [
      '/console/assets/../../outside.txt',
      '/console/assets/..%2f..%2foutside.txt',
      '/console/assets/%2e%2e/%2e%2e/outside.txt',
      '/console/assets/.secret',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body, url).not.toContain('not for the browser');
      expect(res.body, url).not.toContain('hidden');
    }
  });

  it('is not part of the API document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: object };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/console'))).toEqual([]);
  });

  it('says how to build the console when it was not built, instead of failing', async () => {
    const res = await bare.inject({ method: 'GET', url: '/console/' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('pnpm --filter @readlib/console build');
    // the API itself is unaffected
    expect((await bare.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it("finds the console's build beside this package from src/ and from a compiled dist/ alike", () => {
    const consoleDist = fileURLToPath(new URL('../../console/dist', import.meta.url));
    const fromSource = new URL('../src/plugins/console.plugin.ts', import.meta.url).href;
    const fromBuild = pathToFileURL(
      fileURLToPath(new URL('../dist/plugins/console.plugin.js', import.meta.url)),
    ).href;
    expect(defaultConsoleDir(fromSource)).toBe(consoleDist);
    expect(defaultConsoleDir(fromBuild)).toBe(consoleDist);
    expect(defaultConsoleDir()).toBe(consoleDist);
  });
});
