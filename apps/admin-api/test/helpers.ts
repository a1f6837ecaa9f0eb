import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureFirstOperator } from '@readlib/catalog';
import { type AppConfig, testConfig } from '@readlib/config';
import type { Database, DbHandle } from '@readlib/data';
import type { TestDialect } from '@readlib/data/testing';
import { FileStore } from '@readlib/epub';
import type { App } from '@readlib/http';
import type { Kysely } from 'kysely';
import { buildApp } from '../src/index.js';

export const REAL_EPUB = (name: string) =>
  new URL(`../../../packages/epub/fixtures/real/${name}`, import.meta.url).pathname;

export const OPERATOR = { username: 'ops', password: 'correct horse battery' };
export const JWT_SECRET = 's'.repeat(48);

export interface Harness {
  h: DbHandle;
  app: App;
  store: FileStore;
  root: string;
  config: AppConfig;
  token: string;
  auth: { authorization: string };
  clock: { now: number };
  close(): Promise<void>;
}

/** A migrated database, a temp store, the first operator, the app and a token. */
export async function harness(dialect: TestDialect, env: Record<string, string> = {}): Promise<Harness> {
  const h = await dialect.create();
  const root = await mkdtemp(join(tmpdir(), 'readlib-admin-'));
  const store = new FileStore(root);
  const clock = { now: Date.now() };
  const config = testConfig({
    STORAGE_DIR: root,
    JWT_SECRET,
    ADMIN_USERNAME: OPERATOR.username,
    ADMIN_PASSWORD: OPERATOR.password,
    PUBLIC_BASE_URL: 'http://res.test',
    ...env,
  });
  await ensureFirstOperator(h.db, config);
  const app = await buildApp(config, { db: h.db, store, logger: false, now: () => clock.now });
  const token = await login(app);
  return {
    h,
    app,
    store,
    root,
    config,
    token,
    auth: { authorization: `Bearer ${token}` },
    clock,
    close: async () => {
      await app.close();
      await h.destroy();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export async function login(app: App, creds = OPERATOR, remoteAddress = '127.0.0.1'): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/user/login', payload: creds, remoteAddress });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return res.json().data.token;
}

/** A multipart/form-data body with one file part, as a browser would send it. */
export async function multipart(buf: Buffer, filename = 'book.epub', field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(buf)], { type: 'application/epub+zip' }), filename);
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
}

export async function upload(t: Harness, buf: Buffer, filename = 'book.epub') {
  const body = await multipart(buf, filename);
  return t.app.inject({
    method: 'POST',
    url: '/book/upload',
    ...body,
    headers: { ...body.headers, ...t.auth },
  });
}

export async function count(
  t: Harness,
  table: 'books' | 'uploads' | 'toc_entries' | 'categories',
): Promise<number> {
  const row = await t.h.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every file under the store, relative (the empty `.tmp` folder left by FileStore excluded). */
export async function storeFiles(t: Harness): Promise<string[]> {
  const entries = await readdir(t.root, { recursive: true }).catch(() => [] as string[]);
  return entries
    .map(String)
    .filter((e) => e !== '.tmp')
    .sort();
}

/** A registered user as the reader API stores one, created at `created`: for the report screens' tests. */
export async function insertUser(
  db: Kysely<Database>,
  openId: string,
  created: number,
  province = '',
  city = '',
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      open_id: openId,
      platform: 'wx',
      avatar_url: '',
      nick_name: openId,
      gender: 0,
      country: 'CN',
      province,
      city,
      language: 'zh_CN',
      created_at: created,
      updated_at: created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
