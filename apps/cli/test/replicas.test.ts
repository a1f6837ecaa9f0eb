import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AdminServer, startAdminServer } from '@readlib/admin-api';
import { type AppConfig, testConfig } from '@readlib/config';
import { createDb, type DbHandle, insertBook } from '@readlib/data';
import { sampleBook, type TestDialect, testDialects } from '@readlib/data/testing';
import { makeEpub } from '@readlib/epub/testing';
import type { App } from '@readlib/http';
import { dropRedisPrefix, testRedisUrl, uniqueRedisPrefix } from '@readlib/http/testing';
import { startReaderServer } from '@readlib/reader-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const postgres = (await testDialects()).find((d) => d.name === 'postgres');
const redisUrl = await testRedisUrl();
const skip = !postgres ? 'PostgreSQL unreachable' : !redisUrl ? 'Redis unreachable' : undefined;
if (skip) console.warn(`[readlib] replica tests SKIPPED: ${skip} (both are needed)`);

const OPERATOR = { username: 'ops', password: 'correct horse battery' };
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies read over the wire
type Json = any;

/** A client at its own address (the apps trust the loopback proxy), so each test has its own rate budget. */
function client(ip: string, headers: Record<string, string> = {}) {
  return async (url: string, init: RequestInit = {}): Promise<{ status: number; body: Json }> => {
    const res = await fetch(url, {
      ...init,
      headers: { 'x-forwarded-for': ip, ...headers, ...(init.headers as Record<string, string>) },
    });
    return { status: res.status, body: await res.json() };
  };
}

describe.skipIf(skip !== undefined)(
  'stateless replicas: two reader-api and one admin-api on one PostgreSQL, one Redis, one store (issue: scale-out §1)',
  () => {
    const prefix = uniqueRedisPrefix('replicas');
    const handles: DbHandle[] = [];
    let schema: Awaited<ReturnType<TestDialect['create']>>;
    let storage: string;
    let readers: App[] = [];
    let admin: AdminServer;
    let a: string;
    let b: string;
    let adminUrl: string;
    let token: string;

    beforeAll(async () => {
      schema = await postgres!.create();
      storage = mkdtempSync(join(tmpdir(), 'readlib-replicas-'));
      const config: AppConfig = {
        ...testConfig({
          STORAGE_DIR: storage,
          PUBLIC_BASE_URL: 'http://files.test',
          REDIS_URL: redisUrl!,
          REDIS_KEY_PREFIX: prefix,
          JWT_SECRET: 'r'.repeat(48),
          ADMIN_USERNAME: OPERATOR.username,
          ADMIN_PASSWORD: OPERATOR.password,
          RATE_LIMIT_PER_MINUTE: '20',
          TRUST_PROXY: 'true',
        }),
        readerPort: 0,
        adminPort: 0,
      };
      // each replica has its own pool, as separate processes would
      const db = () => {
        const h = createDb(schema.config, { poolSize: 4 });
        handles.push(h);
        return h.db;
      };
      readers = [
        await startReaderServer(config, { db: db() }),
        await startReaderServer(config, { db: db() }),
      ];
      [a, b] = readers.map((r) => `http://127.0.0.1:${(r.server.address() as { port: number }).port}`) as [
        string,
        string,
      ];
      admin = await startAdminServer(config, { db: db(), logger: false });
      adminUrl = admin.url;
      const login = await client('192.0.2.1')(`${adminUrl}/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(OPERATOR),
      });
      expect(login.status).toBe(200);
      token = login.body.data.token;
    });

    afterAll(async () => {
      await Promise.allSettled([...readers.map((r) => r.close()), admin?.close()]);
      for (const h of handles) await h.destroy();
      await schema?.destroy();
      if (redisUrl) await dropRedisPrefix(redisUrl, prefix);
      if (storage) rmSync(storage, { recursive: true, force: true });
    });

    it('every replica is ready with the database and Redis, and shares kept lists through it', async () => {
      for (const base of [a, b, adminUrl]) {
        expect((await client('192.0.2.2')(`${base}/readyz`)).body).toEqual({
          status: 'ok',
          database: true,
          redis: true,
        });
      }
      for (const app of [...readers, admin.app]) expect(app.sharedStore?.constructor.name).toBe('RedisStore');
    });

    it('a shelf saved through one replica is read through the other', async () => {
      const book = await insertBook(handles[0]!.db, sampleBook({ title: 'Shelved across replicas' }), []);
      const call = client('192.0.2.3');
      const reg = await call(`${a}/user/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ openId: 'replica-reader', nickName: 'R' }),
      });
      expect(reg.body.error_code).toBe(0);
      const shelf = encodeURIComponent(
        JSON.stringify({ openId: 'replica-reader', fileName: book.file_name }),
      );
      expect((await call(`${a}/book/shelf/save?shelf=${shelf}`)).body.error_code).toBe(0);
      const got = await call(`${b}/book/shelf/get?openId=replica-reader`);
      expect(got.body.data.map((e: Json) => e.fileName)).toEqual([book.file_name]);
      const home = await call(`${b}/book/home/v2?openId=replica-reader`);
      expect(home.body.data.shelfCount).toBe(1);
    });

    it('a book created through admin-api is found on both replicas, and cached lists change on both', async () => {
      const tag = randomBytes(4).toString('hex');
      const title = `Replica voyage ${tag}`;
      const category = `Replica shelf ${tag}`;
      const call = client('192.0.2.4');
      const auth = client('192.0.2.4', { authorization: `Bearer ${token}` });
      const categoryNames = async (base: string): Promise<string[]> =>
        (await call(`${base}/book/category/list/v2`)).body.data.map((c: Json) => c.categoryText);
      // both replicas keep the category list (in Redis and in their own process)
      expect(await categoryNames(a)).not.toContain(category);
      expect(await categoryNames(b)).not.toContain(category);

      const form = new FormData();
      form.append('file', new Blob([makeEpub({ title, creators: ['Ada Replica'] })]), 'voyage.epub');
      const up = await auth(`${adminUrl}/book/upload`, { method: 'POST', body: form });
      expect(up.status).toBe(200);
      const { fileName } = up.body.data;
      const created = await auth(`${adminUrl}/book/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fileName, categoryText: category }),
      });
      expect(created.body).toMatchObject({ code: 0 });

      for (const base of [a, b]) {
        const found = await call(`${base}/book/search?keyword=${encodeURIComponent(tag)}`);
        expect(found.body.data.book.map((x: Json) => x.fileName)).toEqual([fileName]);
      }
      // at once: each replica's next request sees the catalogue version moved, and the list is kept under it
      for (const base of [b, a]) {
        await expect.poll(() => categoryNames(base), { timeout: 10_000, interval: 50 }).toContain(category);
      }

      const updated = await auth(`${adminUrl}/book/update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fileName, categoryText: `${category} renamed` }),
      });
      expect(updated.body).toMatchObject({ code: 0 });
      await expect
        .poll(() => categoryNames(b), { timeout: 10_000, interval: 50 })
        .toContain(`${category} renamed`);

      expect((await auth(`${adminUrl}/book/delete?fileName=${fileName}`)).body).toMatchObject({ code: 0 });
      for (const base of [b, a]) {
        await expect
          .poll(() => categoryNames(base), { timeout: 10_000, interval: 50 })
          .not.toContain(`${category} renamed`);
        const gone = await call(`${base}/book/search?keyword=${encodeURIComponent(tag)}`);
        expect(gone.body.data.book).toEqual([]);
      }
      const metrics = await fetch(`${adminUrl}/metrics`).then((r) => r.text());
      expect(metrics).toMatch(/^readlib_uploads_total\{result="accepted",reason=""\} 1$/m);
      expect(metrics).toMatch(/^readlib_books_created_total 1$/m);
      expect(metrics).toMatch(/^readlib_books_deleted_total 1$/m);
    });

    it('rate limits count across replicas: requests spread over both hit 429 at the shared limit', async () => {
      const call = client('198.51.100.9');
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) statuses.push((await call(`${i % 2 ? a : b}/book/hot-search`)).status);
      // each replica saw 12 requests, under the limit of 20: only a shared counter refuses the 21st
      expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
      expect(statuses.slice(20)).toEqual([429, 429, 429, 429]);
      const refused = await call(`${a}/book/hot-search`);
      expect(refused.body.error_code).toBe(5);
      // another client keeps its own budget
      expect((await client('198.51.100.10')(`${b}/book/hot-search`)).status).toBe(200);
    });
  },
);
