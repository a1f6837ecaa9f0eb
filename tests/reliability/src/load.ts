import { randomBytes } from 'node:crypto';
import { createDb, type DbHandle, insertBook, migrateToLatest, upsertUser } from '@readlib/data';
import { sampleBook } from '@readlib/data/testing';
import { makeEpub } from '@readlib/epub/testing';
import pg from 'pg';
import { createOver, login, type Service, startService, uploadOver, workspace } from './proc.js';
import { integrity } from './store-check.js';

export interface LoadOptions {
  dialect: 'sqlite' | 'postgres';
  seconds: number;
  connections: number;
  pgUrl?: string;
}

export interface LoadFigures {
  dialect: string;
  seconds: number;
  connections: number;
  requests: number;
  byStatus: Record<string, number>;
  byRoute: Record<string, number>;
  serverErrors: number;
  networkErrors: number;
  acknowledged: { shelf: number; rating: number; uploads: number; creates: number };
  lost: { shelf: number; rating: number; creates: number };
  integrity: string;
  requestsPerSecond: number;
}

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh database of the dialect for the spawned services, seeded with books and readers. */
async function prepareDatabase(opts: LoadOptions, dbFile: string) {
  let url = dbFile;
  let drop: (() => Promise<void>) | undefined;
  if (opts.dialect === 'postgres') {
    const base = opts.pgUrl ?? process.env.TEST_DATABASE_URL ?? DEFAULT_PG;
    const name = `readlib_load_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    url = u.toString();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('create extension if not exists pg_trgm');
    await c.end();
    drop = async () => {
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    };
  }
  const h = createDb(
    opts.dialect === 'postgres' ? { dialect: 'postgres', url } : { dialect: 'sqlite', file: url },
  );
  await migrateToLatest(h.db);
  const fileNames: string[] = [];
  for (let i = 0; i < 40; i++) {
    const b = await insertBook(
      h.db,
      sampleBook({ title: `Load ${i} ${i % 2 ? '红楼梦' : 'Voyage'}`, author: `Author ${i % 7}` }),
      [],
    );
    fileNames.push(b.file_name);
  }
  const readers = Array.from({ length: 80 }, (_, i) => `load-reader-${i}`);
  for (const openId of readers)
    await upsertUser(h.db, { openId, platform: 'wx', province: '广东', city: '广州' });
  await h.destroy();
  return { url, drop, fileNames, readers };
}

const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/**
 * Mixed reader traffic from this process against both services spawned as processes, with shelf saves,
 * ratings and admin uploads among it; afterwards every acknowledged write is looked up in the database.
 */
export async function runLoad(opts: LoadOptions): Promise<LoadFigures> {
  const ws = await workspace();
  const db = await prepareDatabase(opts, ws.dbFile);
  const env = { ...ws.env, DATABASE_URL: db.url };
  const services: Service[] = [];
  try {
    const [reader, admin] = await Promise.all([startService('reader', env), startService('admin', env)]);
    services.push(reader, admin);
    const token = await login(admin.url);

    const figures: LoadFigures = {
      dialect: opts.dialect,
      seconds: opts.seconds,
      connections: opts.connections,
      requests: 0,
      byStatus: {},
      byRoute: {},
      serverErrors: 0,
      networkErrors: 0,
      acknowledged: { shelf: 0, rating: 0, uploads: 0, creates: 0 },
      lost: { shelf: 0, rating: 0, creates: 0 },
      integrity: 'n/a',
      requestsPerSecond: 0,
    };
    const shelf = new Set<string>();
    const ratings = new Map<string, Set<number>>();
    const created: string[] = [];
    const failures: string[] = [];
    const count = (route: string, status: number | string) => {
      figures.requests++;
      figures.byRoute[route] = (figures.byRoute[route] ?? 0) + 1;
      figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
      if (typeof status === 'number' && status >= 500) figures.serverErrors++;
      if (typeof status === 'string') figures.networkErrors++;
    };
    const get = async (route: string, path: string): Promise<boolean> => {
      try {
        const res = await fetch(`${reader.url}${path}`);
        const body = (await res.json()) as { error_code?: number };
        count(route, res.status);
        const ok = res.status === 200 && body.error_code === 0;
        if (!ok && failures.length < 10) failures.push(`${path} -> ${res.status} ${JSON.stringify(body)}`);
        return ok;
      } catch (err) {
        count(
          route,
          `network:${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message}`,
        );
        return false;
      }
    };

    const keywords = ['Voyage', '红', '红楼', 'Author 3', 'load', 'zz', '梦'];
    const deadline = Date.now() + opts.seconds * 1000;
    const worker = async () => {
      while (Date.now() < deadline) {
        const r = Math.random();
        const openId = pick(db.readers);
        const fileName = pick(db.fileNames);
        if (r < 0.14) await get('home', `/book/home/v2?openId=${openId}`);
        else if (r < 0.24)
          await get(
            'search',
            `/book/search?keyword=${encodeURIComponent(pick(keywords))}&openId=${openId}&pageSize=10`,
          );
        else if (r < 0.34) await get('detail', `/book/detail?fileName=${fileName}&openId=${openId}`);
        else if (r < 0.38) await get('contents', `/book/contents?fileName=${fileName}`);
        else if (r < 0.42) await get('category', '/book/category/list/v2');
        else if (r < 0.46) await get('recommend', '/book/home/recommend/v2');
        else if (r < 0.5) await get('hotBook', '/book/home/hotBook/v2');
        else if (r < 0.54)
          await get('searchList', `/book/search-list?author=${encodeURIComponent('Author 1')}`);
        else if (r < 0.62) await get('shelfGet', `/book/shelf/get?openId=${openId}`);
        else if (r < 0.78) {
          const arg = encodeURIComponent(JSON.stringify({ openId, fileName }));
          if (await get('shelfSave', `/book/shelf/save?shelf=${arg}`)) shelf.add(`${openId} ${fileName}`);
        } else if (r < 0.8) {
          // removals only on readers whose saves are not accounted, so an acknowledged save stays
          const arg = encodeURIComponent(JSON.stringify({ openId: 'load-reader-0', fileName }));
          await get('shelfRemove', `/book/shelf/remove?shelf=${arg}`);
        } else {
          const rank = 1 + Math.floor(Math.random() * 5);
          if (await get('rank', `/book/rank/save?fileName=${fileName}&openId=${openId}&rank=${rank}`)) {
            const key = `${openId} ${fileName}`;
            if (!ratings.has(key)) ratings.set(key, new Set());
            ratings.get(key)!.add(rank);
          }
        }
      }
    };
    let u = 0;
    const uploader = async () => {
      while (Date.now() < deadline) {
        const epub = makeEpub({
          title: `Uploaded under load ${u++} ${randomBytes(3).toString('hex')}`,
          cover: true,
        });
        try {
          const up = await uploadOver(admin.url, token, epub);
          count('upload', up.status);
          if (up.status !== 200) {
            failures.push(`upload -> ${up.status} ${JSON.stringify(up.body)}`);
            continue;
          }
          figures.acknowledged.uploads++;
          const c = await createOver(admin.url, token, up.body.data.fileName);
          count('create', c.status);
          if (c.status === 200) created.push(up.body.data.fileName);
          else failures.push(`create -> ${c.status} ${JSON.stringify(c.body)}`);
        } catch (err) {
          count('upload', `network:${(err as Error).message}`);
        }
      }
    };
    const started = Date.now();
    await Promise.all([...Array.from({ length: opts.connections }, worker), uploader()]);
    figures.requestsPerSecond = Math.round(figures.requests / ((Date.now() - started) / 1000));
    for (const s of services) await s.kill('SIGTERM');

    // every acknowledged write, looked up after the services are gone
    const h: DbHandle = createDb(
      opts.dialect === 'postgres'
        ? { dialect: 'postgres', url: db.url }
        : { dialect: 'sqlite', file: db.url },
    );
    try {
      const shelfRows = await h.db
        .selectFrom('shelf_entries as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .innerJoin('books as b', 'b.id', 's.book_id')
        .select(['u.open_id', 'b.file_name'])
        .execute();
      const shelfNow = new Set(shelfRows.map((r) => `${r.open_id} ${r.file_name}`));
      const rankRows = await h.db
        .selectFrom('ratings as r')
        .innerJoin('users as u', 'u.id', 'r.user_id')
        .innerJoin('books as b', 'b.id', 'r.book_id')
        .select(['u.open_id', 'b.file_name', 'r.rank'])
        .execute();
      const rankNow = new Map(rankRows.map((r) => [`${r.open_id} ${r.file_name}`, Number(r.rank)]));
      const books = new Set(
        (await h.db.selectFrom('books').select('file_name').execute()).map((r) => r.file_name),
      );
      figures.acknowledged.shelf = shelf.size;
      figures.acknowledged.rating = ratings.size;
      figures.acknowledged.creates = created.length;
      figures.lost.shelf = [...shelf].filter(
        (k) => !k.startsWith('load-reader-0 ') && !shelfNow.has(k),
      ).length;
      figures.lost.rating = [...ratings].filter(([k, ranks]) => !ranks.has(rankNow.get(k) ?? -1)).length;
      figures.lost.creates = created.filter((f) => !books.has(f)).length;
    } finally {
      await h.destroy();
    }
    if (opts.dialect === 'sqlite') figures.integrity = integrity(ws.dbFile);
    if (failures.length) (figures as LoadFigures & { failures?: string[] }).failures = failures.slice(0, 10);
    return figures;
  } finally {
    for (const s of services) await s.kill('SIGKILL');
    await db.drop?.();
    await ws.remove();
  }
}
