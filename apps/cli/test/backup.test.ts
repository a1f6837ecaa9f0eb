import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backupSqlite, restoreSqlite } from '../src/commands/backup.command.js';
import { collectEpubs, importAll } from '../src/commands/import.command.js';
import { REAL_EPUB_DIR } from '../src/demo/demo-catalogue.js';
import { runCli } from './run-cli.js';

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
    const kept = await restoreSqlite(join(dir, 'bk'), dbFile, store);
    expect(kept).toEqual({ database: expect.stringContaining('.before-restore-') });
    expect(existsSync(kept.database!)).toBe(true);
  });
});

/** Runs a script on the live database in a node process of its own, with better-sqlite3 as `Db`. */
function onDatabase(file: string, script: string): ChildProcess {
  return spawn(process.execPath, ['-e', `const Db = require(process.env.DRIVER); ${script}`], {
    env: { ...process.env, DRIVER: driver, FILE: file },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** A process holding the database open, as a running service does: idle, or in a write transaction. */
async function holdOpen(file: string, writing: boolean): Promise<ChildProcess> {
  const child = onDatabase(
    file,
    `const db = new Db(process.env.FILE);
     db.pragma('journal_mode = WAL');
     db.prepare('select count(*) from books').get();
     if (${writing}) {
       db.exec('begin immediate');
       db.prepare("insert into search_log (keyword, open_id, created_at) values ('held', null, 0)").run();
     }
     console.log('ready');
     setInterval(() => {}, 60_000);`,
  );
  await new Promise((resolve, reject) => {
    child.stdout!.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
  });
  return child;
}

/** Rows committed to the write-ahead log by a process that then dies, so they are in the log only. */
async function commitAndCrash(file: string, rows: number): Promise<void> {
  const child = onDatabase(
    file,
    `const db = new Db(process.env.FILE);
     db.pragma('journal_mode = WAL');
     db.pragma('wal_autocheckpoint = 0');
     const insert = db.prepare('insert into search_log (keyword, open_id, created_at) values (?, null, 0)');
     for (let i = 0; i < ${rows}; i++) insert.run('crashed-' + i);
     process.kill(process.pid, 'SIGKILL');`,
  );
  await new Promise((resolve) => child.once('exit', resolve));
}

async function countRows(file: string, where = '1 = 1'): Promise<number> {
  const h = createDb({ dialect: 'sqlite', file });
  try {
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from search_log where ${sql.raw(where)}`.execute(h.db);
    return Number(rows[0]!.n);
  } finally {
    await h.destroy();
  }
}

describe('backup and restore leave nothing half done (found by an audit)', () => {
  let dir: string;
  let live: string;
  let bk: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-restore-'));
    live = join(dir, 'live');
    bk = join(dir, 'bk');
    expect((await runCli(live, ['import', REAL_EPUB_DIR])).code).toBe(0);
    expect((await runCli(live, ['backup', bk])).code).toBe(0);
  }, 60_000);
  afterEach(() => {
    vi.useRealTimers();
    rmSync(dir, { recursive: true, force: true });
  });

  const dbFile = () => join(live, 'library.db');

  /** Every file and folder of the live install, and the books of its database. */
  async function liveState(): Promise<{ entries: string[]; books: number }> {
    const entries = readdirSync(live, { recursive: true }).map(String).sort();
    const h = createDb({ dialect: 'sqlite', file: dbFile() });
    try {
      return { entries, books: await countBooks(h.db) };
    } finally {
      await h.destroy();
    }
  }

  /** A copy of the backup, changed by `spoil`. */
  function spoiled(name: string, spoil: (copy: string) => void): string {
    const copy = join(dir, name);
    cpSync(bk, copy, { recursive: true });
    spoil(copy);
    return copy;
  }

  it('is refused while another process has the database open, idle or writing', async () => {
    for (const writing of [false, true]) {
      const holder = await holdOpen(dbFile(), writing);
      try {
        const before = await liveState();
        const { code, out } = await runCli(live, ['restore', bk]);
        expect([code, out]).toEqual([
          1,
          `error: restore: ${dbFile()} is open in another process: stop the services first`,
        ]);
        expect(await liveState()).toEqual(before);
      } finally {
        holder.kill();
        await new Promise((resolve) => holder.once('exit', resolve));
      }
    }
  }, 60_000);

  it('keeps what was committed to the write-ahead log in the database it moves aside', async () => {
    await commitAndCrash(dbFile(), 50);
    expect(statSync(`${dbFile()}-wal`).size).toBeGreaterThan(0);
    const { code, out } = await runCli(live, ['restore', bk]);
    expect(code).toBe(0);
    const kept = readdirSync(live).find((n) => n.startsWith('library.db.before-restore-') && n.endsWith('Z'));
    expect(await countRows(join(live, kept!), "keyword like 'crashed-%'")).toBe(50);
    expect(await countRows(dbFile(), "keyword like 'crashed-%'")).toBe(0);
    expect(out).toBe(
      `restored from ${bk}; the previous database was kept as ${join(live, kept!)}, the previous store's files in ${join(live, 'store', kept!.replace('library.db', ''))}`,
    );
    expect(readdirSync(join(live, 'store', kept!.replace('library.db', ''), 'epub'))).toHaveLength(6);
  }, 60_000);

  it('refuses a backup that is damaged, not whole, not migrated or from a newer build, moving nothing', async () => {
    const before = await liveState();
    const refusals: Array<[string, RegExp]> = [
      [
        spoiled('garbage', (c) => writeFileSync(join(c, 'library.db'), randomBytes(65_536))),
        /not a database/,
      ],
      [spoiled('no-store', (c) => rmSync(join(c, 'storage'), { recursive: true })), /no storage\//],
      [
        spoiled('unmigrated', (c) => {
          rmSync(join(c, 'library.db'));
          const db = new (createRequire(import.meta.url)(driver))(join(c, 'library.db'));
          db.exec('create table t (x)');
          db.close();
        }),
        /no migrations recorded/,
      ],
      [
        spoiled('newer', (c) => {
          const db = new (createRequire(import.meta.url)(driver))(join(c, 'library.db'));
          db.prepare(
            "insert into kysely_migration (name, timestamp) values ('2999-01-01T0000-future', '')",
          ).run();
          db.close();
        }),
        /newer version/,
      ],
    ];
    for (const [src, reason] of refusals) {
      const { code, out } = await runCli(live, ['restore', src]);
      expect(await liveState(), src).toEqual(before);
      expect(code, src).toBe(1);
      expect(out, src).toMatch(reason);
    }
  }, 60_000);

  it('leaves the live database and store as they were when copying the backup fails midway', async () => {
    // fs.cp refuses a FIFO: the copy fails after the database and part of the store were copied
    const src = spoiled('fifo', (c) => execFileSync('mkfifo', [join(c, 'storage', 'unzip', 'zz-pipe')]));
    const before = await liveState();
    const { code, out } = await runCli(live, ['restore', src]);
    expect(await liveState()).toEqual(before);
    expect(code).toBe(1);
    expect(out).toMatch(/copying .* failed, nothing in place was changed/);
  }, 60_000);

  it('leaves no partial backup when a backup fails, so that a retry goes through', async () => {
    // fs.cp refuses a FIFO: the backup fails after the database and part of the store were copied
    const book = readdirSync(join(live, 'store', 'unzip'))[0]!;
    const pipe = join(live, 'store', 'unzip', book, 'zz-pipe');
    execFileSync('mkfifo', [pipe]);
    const dest = join(dir, 'again');
    expect((await runCli(live, ['backup', dest])).code).toBe(1);
    expect(readdirSync(dir).filter((n) => n.includes('again'))).toEqual([]);
    // an empty folder already there (a mount point, say) is written into, and emptied again
    mkdirSync(dest);
    expect((await runCli(live, ['backup', dest])).code).toBe(1);
    expect(readdirSync(dest)).toEqual([]);
    rmSync(pipe);
    expect((await runCli(live, ['backup', dest])).code).toBe(0);
    expect(readdirSync(dest).sort()).toEqual(['library.db', 'manifest.json', 'storage']);
  }, 60_000);

  it('undoes the renames already done when a later one fails', async () => {
    // the time fixes the names each version gives the previous store; both taken, so the swap fails
    // after the database was moved
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-02T03:04:05.678Z'));
    writeFileSync(join(live, 'store', '.before-restore-2026-01-02T03-04-05-678Z'), 'taken');
    mkdirSync(join(live, 'store.before-restore-2026-01-02T03-04-05-678Z', 'taken'), { recursive: true });
    const before = await liveState();
    await expect(restoreSqlite(bk, dbFile(), join(live, 'store'))).rejects.toThrow(/nothing was changed/);
    expect(await liveState()).toEqual(before);
  }, 60_000);

  it('says nothing of previous data where there was none', async () => {
    const fresh = join(dir, 'fresh');
    expect(await runCli(fresh, ['restore', bk])).toEqual({ code: 0, out: `restored from ${bk}` });
    expect(readdirSync(join(fresh, 'store', 'epub'))).toHaveLength(6);
  }, 60_000);

  // docs/deployment.md mounts the shared store at STORAGE_DIR; a mount point cannot be renamed (EBUSY)
  it.skipIf(!canMount())(
    'restores into a store that is a mount point',
    async () => {
      const store = join(dir, 'mounted', 'store');
      mkdirSync(store, { recursive: true });
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64M', 'tmpfs', store]);
      try {
        expect((await runCli(join(dir, 'mounted'), ['import', REAL_EPUB_DIR])).code).toBe(0);
        const { code, out } = await runCli(join(dir, 'mounted'), ['restore', bk]);
        expect([code, out]).toEqual([
          0,
          expect.stringMatching(/previous store's files in .*\.before-restore-/),
        ]);
        expect(readdirSync(join(store, 'epub'))).toHaveLength(6);
        const kept = readdirSync(store).find((n) => n.startsWith('.before-restore-'));
        expect(readdirSync(join(store, kept!, 'epub'))).toHaveLength(6);
      } finally {
        execFileSync('umount', [store]);
      }
    },
    60_000,
  );
});

/** Mounting a tmpfs works here (root, with the privilege): the test of a mounted store can run. */
function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'readlib-mount-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1M', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
