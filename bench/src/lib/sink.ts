import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createDb, type DbConfig, migrateToLatest } from '@readlib/data';
import SQLite from 'better-sqlite3';
import pg from 'pg';

export type Row = Array<string | number | null>;

/** Bulk writer of one dataset: raw prepared statements (SQLite) or unnest batches (PostgreSQL). */
export interface Sink {
  dialect: 'sqlite' | 'postgres';
  /** columns with PostgreSQL array types, e.g. ['user_id:int', 'created_at:bigint'] */
  insert(table: string, columns: string[], rows: Iterable<Row>): Promise<number>;
  exec(sql: string): Promise<void>;
  /** called after books are in: FTS rebuild and trigger restore on SQLite, book_keys on PostgreSQL */
  afterBooks(): Promise<void>;
  finish(): Promise<void>;
}

export function dbConfigOf(db: string): DbConfig {
  return db.startsWith('postgres://') || db.startsWith('postgresql://')
    ? { dialect: 'postgres', url: db }
    : { dialect: 'sqlite', file: db };
}

/** A fresh, migrated database at `db` (an existing SQLite file or PostgreSQL schema `public` is replaced). */
export async function openSink(db: string): Promise<Sink> {
  const config = dbConfigOf(db);
  if (config.dialect === 'sqlite') {
    for (const f of [config.file, `${config.file}-wal`, `${config.file}-shm`]) if (existsSync(f)) rmSync(f);
    mkdirSync(dirname(config.file), { recursive: true });
    const h = createDb(config);
    await migrateToLatest(h.db);
    await h.destroy();
    return sqliteSink(config.file);
  }
  const admin = new pg.Client({ connectionString: config.url });
  await admin.connect();
  await admin.query('drop schema if exists public cascade');
  await admin.query('create schema public');
  await admin.query('create extension if not exists pg_trgm with schema public');
  await admin.end();
  const h = createDb(config);
  await migrateToLatest(h.db);
  await h.destroy();
  return pgSink(config.url);
}

function sqliteSink(file: string): Sink {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  db.pragma('temp_store = MEMORY');
  // the FTS tables over books are rebuilt once after the books instead of row by row by the triggers
  const triggers = db
    .prepare(
      `select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'books' and sql like '%after insert%'`,
    )
    .all() as Array<{ name: string; sql: string }>;
  for (const t of triggers) db.exec(`drop trigger ${t.name}`);
  const ftsTables = (
    db
      .prepare(
        `select name from sqlite_master where type = 'table' and sql like '%fts5(%' and (sql like '%content=''books''%' or sql like '%content=''book_search_text''%')`,
      )
      .all() as Array<{ name: string }>
  ).map((t) => t.name);
  return {
    dialect: 'sqlite',
    async insert(table, columns, rows) {
      const names = columns.map((c) => c.split(':')[0]);
      const stmt = db.prepare(
        `insert into ${table} (${names.join(', ')}) values (${names.map(() => '?').join(', ')})`,
      );
      let n = 0;
      let batch: Row[] = [];
      const flush = db.transaction((b: Row[]) => {
        for (const r of b) stmt.run(r);
      });
      for (const r of rows) {
        batch.push(r);
        if (batch.length === 50_000) {
          flush(batch);
          n += batch.length;
          batch = [];
        }
      }
      flush(batch);
      return n + batch.length;
    },
    async exec(sql) {
      db.exec(sql);
    },
    async afterBooks() {
      for (const t of ftsTables) db.exec(`insert into ${t}(${t}) values('rebuild')`);
      for (const t of triggers) db.exec(t.sql);
    },
    async finish() {
      // row counts without value samples, as the service keeps them (packages/data planner-statistics.ts)
      db.exec('analyze');
      db.exec('delete from sqlite_stat4');
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}

/** Activity tables whose secondary indexes are dropped during the load and built once at the end. */
const PG_BULK_TABLES = ['shelf_entries', 'ratings', 'views', 'book_readers', 'search_log'];

/**
 * A bulk load, the way PostgreSQL's manual advises (§14.4 "Populating a Database"): commits without
 * waiting for the WAL flush, foreign-key triggers off where the role may (superuser), and the secondary
 * indexes of the activity tables built once after the rows are in rather than updated per row
 * (inserting 2M views kept three B-trees up to date row by row: 65 s).
 */
async function pgBulkMode(client: pg.Client): Promise<() => Promise<void>> {
  await client.query(`set synchronous_commit = off`);
  await client.query(`set maintenance_work_mem = '512MB'`);
  await client.query(`set work_mem = '256MB'`);
  await client.query(`set session_replication_role = replica`).catch(() => undefined);
  const { rows } = await client.query<{ indexname: string; indexdef: string }>(
    `select i.indexname, i.indexdef from pg_indexes i
      where i.schemaname = current_schema() and i.tablename = any($1)
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [PG_BULK_TABLES],
  );
  for (const r of rows) await client.query(`drop index ${r.indexname}`);
  return async () => {
    for (const r of rows) await client.query(r.indexdef);
    await client.query(`set session_replication_role = default`).catch(() => undefined);
  };
}

function pgSink(url: string): Sink {
  const client = new pg.Client({ connectionString: url });
  let restore: (() => Promise<void>) | undefined;
  const ready = client.connect().then(async () => {
    restore = await pgBulkMode(client);
  });
  return {
    dialect: 'postgres',
    async insert(table, columns, rows) {
      await ready;
      const names = columns.map((c) => c.split(':')[0]!);
      const types = columns.map((c) => c.split(':')[1] ?? 'text');
      const sql = `insert into ${table} (${names.join(', ')}) select * from unnest(${types
        .map((t, i) => `$${i + 1}::${t}[]`)
        .join(', ')})`;
      let n = 0;
      let cols: unknown[][] = names.map(() => []);
      const flush = async () => {
        if (cols[0]!.length) await client.query(sql, cols);
        n += cols[0]!.length;
        cols = names.map(() => []);
      };
      for (const r of rows) {
        for (let i = 0; i < r.length; i++) cols[i]!.push(r[i]);
        if (cols[0]!.length === 20_000) await flush();
      }
      await flush();
      return n;
    },
    async exec(sql) {
      await ready;
      await client.query(sql);
    },
    async afterBooks() {
      await client.query(`select setval(pg_get_serial_sequence('books', 'id'), (select max(id) from books))`);
      // the bulk mode's replica role holds back every trigger, book_keys' too (migration
      // 2026-11-27T1800-book-keys): its rows are copied as that migration copies them
      await client.query(
        'insert into book_keys (id, title_key, author_key) select id, title_key, author_key from books',
      );
    },
    async finish() {
      await restore?.();
      for (const t of ['users', 'shelf_entries', 'ratings', 'views', 'search_log']) {
        await client.query(
          `select setval(pg_get_serial_sequence('${t}', 'id'), coalesce((select max(id) from ${t}), 1))`,
        );
      }
      // vacuum, not only analyze: it also empties the GIN indexes' pending lists, which every trigram
      // and gram search would otherwise scan whole after the load
      await client.query('vacuum analyze');
      await client.end();
    },
  };
}
