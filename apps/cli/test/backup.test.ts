import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  countBooks,
  createDb,
  findUserByOpenId,
  migrateToLatest,
  saveRating,
  upsertUser,
} from '@readlib/data';
import { FileStore } from '@readlib/epub';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupSqlite, restoreSqlite } from '../src/commands/backup.command.js';
import { collectEpubs, importAll } from '../src/commands/import.command.js';
import { REAL_EPUB_DIR } from '../src/demo/demo-catalogue.js';

const dataDir = fileURLToPath(new URL('../../../packages/data/', import.meta.url));
const driver = createRequire(join(dataDir, 'package.json')).resolve('better-sqlite3');

function startWriter(file: string): { stop(): Promise<number> } {
  const stop = new SharedArrayBuffer(4);
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.file);
     db.pragma('busy_timeout = 5000');
     const insert = db.prepare('insert into search_log (keyword, open_id, created_at) values (?, null, ?)');
     const flag = new Int32Array(workerData.stop);
     let n = 0;
     while (Atomics.load(flag, 0) === 0) { insert.run('k' + n, Date.now()); n++; Atomics.wait(flag, 0, 0, 1); }
     db.close();
     parentPort.postMessage(n);`,
    { eval: true, workerData: { driver, file, stop } },
  );
  const done = new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop: async () => {
      Atomics.store(new Int32Array(stop), 0, 1);
      return done;
    },
  };
}

describe('backup and restore (issue: scale-out and operations §4)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-backup-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('snapshots the database and store while writes go on, and restores them round-trip', async () => {
    const dbFile = join(dir, 'live', 'library.db');
    const storeRoot = join(dir, 'live', 'storage');
    const live = createDb({ dialect: 'sqlite', file: dbFile });
    await migrateToLatest(live.db);
    const store = new FileStore(storeRoot);
    const imported = await importAll({ db: live.db, store, limits: {} }, await collectEpubs([REAL_EPUB_DIR]));
    const reader = await upsertUser(live.db, { openId: 'r1', platform: 'wx' });
    const book = await live.db.selectFrom('books').select('id').executeTakeFirstOrThrow();

    // another process keeps writing while the snapshot is taken, as a serving service would: a worker
    // thread with its own connection, so its waits on the write lock never block this event loop
    const writer = startWriter(dbFile);
    await saveRating(live.db, reader.id, book.id, 4);
    const manifest = await backupSqlite(live.db, storeRoot, join(dir, 'backup'));
    const writes = await writer.stop();
    expect(writes).toBeGreaterThan(0);
    expect(manifest).toMatchObject({ books: imported.added, uploads: 0, missing: [] });
    expect(manifest.files).toBeGreaterThan(imported.added * 3);
    await expect(backupSqlite(live.db, storeRoot, join(dir, 'backup'))).rejects.toThrow(/not empty/);
    await live.destroy();

    const restoredDb = join(dir, 'restored', 'library.db');
    const restoredStore = join(dir, 'restored', 'storage');
    await restoreSqlite(join(dir, 'backup'), restoredDb, restoredStore);
    const back = createDb({ dialect: 'sqlite', file: restoredDb });
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(back.db);
    expect(integrity.rows[0]?.integrity_check).toBe('ok');
    expect(await countBooks(back.db)).toBe(imported.added);
    expect(await findUserByOpenId(back.db, 'r1')).toBeDefined();
    const { n } = await back.db
      .selectFrom('ratings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(1);
    const files = await back.db.selectFrom('books').select('file_name').execute();
    for (const f of files) {
      expect(existsSync(join(restoredStore, 'epub', `${f.file_name}.epub`))).toBe(true);
      expect(existsSync(join(restoredStore, 'unzip', f.file_name))).toBe(true);
    }
    expect(readdirSync(join(restoredStore, 'epub'))).toHaveLength(imported.added);
    await back.destroy();
  });

  it('restore keeps what was there before, and refuses a folder that is not a backup', async () => {
    const dbFile = join(dir, 'x', 'library.db');
    const store = join(dir, 'x', 'storage');
    const h = createDb({ dialect: 'sqlite', file: dbFile });
    await migrateToLatest(h.db);
    await h.destroy();
    await expect(restoreSqlite(join(dir, 'nothing'), dbFile, store)).rejects.toThrow(/not a backup/);
    const src = createDb({ dialect: 'sqlite', file: join(dir, 'src', 'live.db') });
    await migrateToLatest(src.db);
    await backupSqlite(src.db, join(dir, 'src', 'storage'), join(dir, 'bk'));
    await src.destroy();
    const aside = await restoreSqlite(join(dir, 'bk'), dbFile, store);
    expect(existsSync(`${dbFile}.${aside}`)).toBe(true);
  });
});
