import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppConfig, testConfig } from '@readlib/config';
import { type BookRow, type DbHandle, insertBook, type NewBook } from '@readlib/data';
import { sampleBook, type TestDialect, testDialects } from '@readlib/data/testing';
import type { App } from '@readlib/http';
import { buildApp, type ReaderDeps } from '../src/index.js';

export const dialects = await testDialects();
export const DAY = 24 * 60 * 60 * 1000;

export interface Harness {
  app: App;
  h: DbHandle;
  config: AppConfig;
  storage: string;
  /** the app's clock; tests move `clock.now` */
  clock: { now: number };
  close(): Promise<void>;
}

/** A fresh database of the dialect, a temporary file store and the app on top of them. */
export async function harness(
  dialect: TestDialect,
  env: Record<string, string> = {},
  deps: Partial<ReaderDeps> = {},
): Promise<Harness> {
  const h = await dialect.create();
  const storage = mkdtempSync(join(tmpdir(), 'readlib-store-'));
  const config = testConfig({ STORAGE_DIR: storage, PUBLIC_BASE_URL: 'http://files.test', ...env });
  const clock = { now: Date.UTC(2026, 10, 22, 12) };
  const app = await buildApp(config, { db: h.db, logger: false, now: () => clock.now, ...deps }).catch(
    async (err: unknown) => {
      await h.destroy();
      rmSync(storage, { recursive: true, force: true });
      throw err;
    },
  );
  return {
    app,
    h,
    config,
    storage,
    clock,
    async close() {
      await app.close();
      await h.destroy();
      rmSync(storage, { recursive: true, force: true });
    },
  };
}

export function seedBook(t: Harness, overrides: Partial<NewBook> = {}): Promise<BookRow> {
  return insertBook(t.h.db, sampleBook(overrides), []);
}

export async function seedBooks(t: Harness, n: number, overrides: Partial<NewBook> = {}): Promise<BookRow[]> {
  const out: BookRow[] = [];
  for (let i = 0; i < n; i++) out.push(await seedBook(t, overrides));
  return out;
}

export async function register(t: Harness, openId: string, profile: Record<string, unknown> = {}) {
  const res = await t.app.inject({ method: 'POST', url: '/user/register', payload: { openId, ...profile } });
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.body}`);
}

/** GET a reader endpoint; `query` values are URL-encoded. */
export async function get(t: Harness, path: string, query: Record<string, string | number | undefined> = {}) {
  const pairs = Object.entries(query).flatMap(
    ([k, v]): Array<[string, string]> => (v === undefined ? [] : [[k, String(v)]]),
  );
  const qs = new URLSearchParams(pairs).toString();
  const res = await t.app.inject({ method: 'GET', url: qs ? `${path}?${qs}` : path });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

export async function view(t: Harness, fileName: string, openId: string) {
  const res = await get(t, '/book/detail', { fileName, openId });
  if (res.status !== 200) throw new Error(`detail failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export const shelfArg = (openId: string, fileName: string) => JSON.stringify({ openId, fileName });

/** The search log once every search answered so far has its line (a search's line commits after its answer). */
export async function settledSearchLog(t: Harness) {
  await t.app.readerWrites.drain();
  return t.h.db.selectFrom('search_log').select(['keyword', 'open_id', 'created_at']).orderBy('id').execute();
}
