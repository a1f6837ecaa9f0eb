import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp as buildAdmin } from '@readlib/admin-api';
import { ensureFirstOperator } from '@readlib/catalog';
import { type AppConfig, testConfig } from '@readlib/config';
import { type DbHandle, insertBook, upsertUser } from '@readlib/data';
import { sampleBook, type TestDialect } from '@readlib/data/testing';
import { FileStore } from '@readlib/epub';
import type { App } from '@readlib/http';
import { buildApp as buildReader } from '@readlib/reader-api';
import type { Pools } from './arbitraries.js';

export const OPERATOR = { username: 'ops', password: 'Pa55-word-never-logged-9317' };
export const JWT_SECRET = 'reliability-secret-'.padEnd(48, 'x');

/** A login platform stand-in that answers success, refusal, garbage, HTTP errors or a network failure. */
export function flakyPlatform(): typeof fetch {
  let n = 0;
  return (async () => {
    switch (n++ % 6) {
      case 0:
        return new Response(JSON.stringify({ openid: 'o-upstream', session_key: 'k' }));
      case 1:
        return new Response(JSON.stringify({ errcode: 40029, errmsg: 'invalid code' }));
      case 2:
        return new Response('<html>gateway</html>', { status: 200 });
      case 3:
        return new Response('oops', { status: 503 });
      case 4:
        return new Response(JSON.stringify({ openid: 42, session_key: null }));
      default:
        throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    }
  }) as typeof fetch;
}

export interface Apps {
  h: DbHandle;
  reader: App;
  admin: App;
  config: AppConfig;
  store: FileStore;
  root: string;
  token: string;
  pools: Pools;
  close(): Promise<void>;
}

/** Both services in process on one fresh database of the dialect, seeded with books and readers. */
export async function buildApps(dialect: TestDialect, env: Record<string, string> = {}): Promise<Apps> {
  const h = await dialect.create();
  const root = await mkdtemp(join(tmpdir(), 'readlib-rel-'));
  const store = new FileStore(root);
  const config = testConfig({
    STORAGE_DIR: root,
    JWT_SECRET,
    ADMIN_USERNAME: OPERATOR.username,
    ADMIN_PASSWORD: OPERATOR.password,
    PUBLIC_BASE_URL: 'http://res.test',
    RATE_LIMIT_PER_MINUTE: '100000000',
    LOGIN_ATTEMPTS_PER_MINUTE: '100000000',
    ...env,
  });
  await ensureFirstOperator(h.db, config);
  const fileNames: string[] = [];
  for (let i = 0; i < 8; i++) {
    const b = await insertBook(
      h.db,
      sampleBook({ title: `Seed ${i} 红楼梦`, author: `Author ${i % 3}` }),
      [],
    );
    fileNames.push(b.file_name);
  }
  const openIds = ['reader-1', 'reader-2', 'o-upstream'];
  for (const openId of openIds.slice(0, 2)) await upsertUser(h.db, { openId, platform: 'wx' });
  const reader = await buildReader(config, { db: h.db, logger: false, fetch: flakyPlatform() });
  const admin = await buildAdmin(config, { db: h.db, store, logger: false });
  const login = await admin.inject({ method: 'POST', url: '/user/login', payload: OPERATOR });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return {
    h,
    reader,
    admin,
    config,
    store,
    root,
    token: login.json().data.token,
    pools: { fileNames: [...fileNames, 'no-such-book'], openIds: [...openIds, 'never-registered'] },
    close: async () => {
      await reader.close();
      await admin.close();
      await h.destroy();
      await rm(root, { recursive: true, force: true });
    },
  };
}
