import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { schemaState } from '@readlib/data';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

/** Where `restore` put what was in place before; a field only for what there was. */
export interface RestoreResult {
  /** the previous database file (its `-wal` and `-shm` beside it, with this name and those suffixes) */
  database?: string;
  /** the folder inside the store holding the previous store's files and folders */
  store?: string;
}

/**
 * Puts a backup in place of the database file and the store. The services must be stopped: it is
 * refused while another process has the database open. Nothing live moves until the backup is checked
 * and copied next to the live data (a full disk or a bad backup fails there); then renames swap it in,
 * and the ones done are undone if a later one fails. What was there is kept, never deleted.
 */
export async function restoreSqlite(src: string, dbFile: string, storeRoot: string): Promise<RestoreResult> {
  await assertBackupFolder(src);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const live = holdLiveDatabase(dbFile);
  try {
    const staged = await stage(src, dbFile, storeRoot, stamp);
    let swapped = false;
    try {
      const kept = await swapIn(staged, dbFile, storeRoot, stamp);
      swapped = true;
      return kept;
    } finally {
      await unstage(staged, swapped);
    }
  } finally {
    // only now: until the backup is in place, a service starting meanwhile fails on the lock
    live?.close();
  }
}

async function assertBackupFolder(src: string): Promise<void> {
  const parts: Array<[name: string, folder: boolean]> = [
    ['manifest.json', false],
    ['library.db', false],
    ['storage', true],
  ];
  for (const [name, folder] of parts) {
    const s = await stat(join(src, name)).catch(() => undefined);
    if (s?.isDirectory() !== folder)
      throw new Error(
        `restore: ${src} is not a backup made by \`pnpm cli backup\` (no ${name}${folder ? '/' : ''})`,
      );
  }
}

/**
 * An exclusive connection to the live database, held until the swap is done; undefined when there is no
 * file, or when it is not a database (what a restore is for; nothing can be serving from it). Every
 * connection to a database in WAL mode holds a shared lock on the file while it is open, idle or in a
 * transaction, so the exclusive lock is refused while any service has it open (checked by hand with a
 * second process idle, reading and writing); a service starting while it is held fails on its first
 * statement.
 */
function holdLiveDatabase(dbFile: string): SQLite.Database | undefined {
  if (!existsSync(dbFile)) return undefined;
  const conn = new SQLite(dbFile, { fileMustExist: true, timeout: 0 });
  try {
    conn.pragma('locking_mode = EXCLUSIVE');
    conn.exec('BEGIN EXCLUSIVE');
    conn.exec('COMMIT');
  } catch (err) {
    conn.close();
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_BUSY')
      throw new Error(`restore: ${dbFile} is open in another process: stop the services first`);
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return undefined;
    throw err;
  }
  try {
    // what a crashed process committed to the log goes into the file itself, so the copy kept aside
    // is whole on its own
    conn.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // a damaged file: its log is moved aside with it, nothing is lost
  }
  return conn;
}

/** The backup's copies on the file systems of the live database and store, where a rename moves them. */
interface Staged {
  db: string;
  store: string;
  /** the store folder did not exist and was made for the staging folder */
  madeStore: boolean;
}

/** The backup copied next to the live data and checked there; on failure nothing of it remains. */
async function stage(src: string, dbFile: string, storeRoot: string, stamp: string): Promise<Staged> {
  await mkdir(dirname(dbFile), { recursive: true });
  const madeStore = !existsSync(storeRoot);
  // dot-named inside the store, which /res never serves (dotfiles ignored)
  const staged: Staged = {
    db: `${dbFile}.restoring-${stamp}`,
    store: join(storeRoot, `.restoring-${stamp}`),
    madeStore,
  };
  try {
    await copyIn(join(src, 'library.db'), staged.db);
    await checkBackupDatabase(staged.db, join(src, 'library.db'));
    await mkdir(staged.store, { recursive: true });
    for (const name of await visibleEntries(join(src, 'storage')))
      await copyIn(join(src, 'storage', name), join(staged.store, name));
    return staged;
  } catch (err) {
    await unstage(staged, false);
    throw err;
  }
}

/** A copy out of the backup; its error says that nothing live was touched. */
async function copyIn(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true }).catch((err: Error) => {
    throw new Error(`restore: copying ${from} failed, nothing in place was changed (${err.message})`, {
      cause: err,
    });
  });
}

/** What is left of the staging places: all of them after a failure, an empty folder after a swap. */
async function unstage(staged: Staged, swapped: boolean): Promise<void> {
  await rm(staged.db, { force: true });
  await rm(staged.store, { recursive: true, force: true });
  if (staged.madeStore && !swapped) await rmdir(join(staged.store, '..')).catch(() => {});
}

/**
 * A database this build can run: readable, intact, migrated by this application and not by a newer
 * version of it. The staged copy is opened, not the backup's file: even a read-only connection to a
 * database in WAL mode creates `-wal` and `-shm` beside it (in the backup folder, or fails on read-only
 * media); a read-write one removes them when it closes.
 */
async function checkBackupDatabase(file: string, shownAs: string): Promise<void> {
  let conn: SQLite.Database | undefined;
  try {
    conn = new SQLite(file, { fileMustExist: true, timeout: 0 });
    conn.pragma('query_only = ON');
    const check = conn.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`quick_check: ${String(check)}`);
    const { state } = await schemaState(
      new Kysely<unknown>({ dialect: new SqliteDialect({ database: conn }) }),
    );
    if (state === 'empty') throw new Error('no migrations recorded: not a database of this application');
    if (state === 'ahead')
      throw new Error('migrated by a newer version of this application: restore it with that version');
  } catch (err) {
    throw new Error(`restore: ${shownAs} cannot be restored (${(err as Error).message})`);
  } finally {
    conn?.close();
  }
}

/**
 * Entries not named with a dot: the store's own dot-named folders (`.tmp` of uploads being received,
 * earlier `.before-restore-*`, this run's staging folder) stay where they are.
 */
async function visibleEntries(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => !name.startsWith('.'));
}

/**
 * The staged backup in, the previous data aside, by renames; if one fails, the ones done are undone in
 * reverse order. The store folder itself never moves, its entries do, into a dot-named folder inside
 * it: STORAGE_DIR is often a mount point (shared by every host, docs/deployment.md), which cannot be renamed
 * (EBUSY), and doing the same when it is not keeps one path for both. The database's `-wal` and `-shm`
 * go with it, under the names SQLite looks for beside the kept file.
 */
async function swapIn(
  staged: Staged,
  dbFile: string,
  storeRoot: string,
  stamp: string,
): Promise<RestoreResult> {
  const undo: Array<() => Promise<void>> = [];
  const move = async (from: string, to: string) => {
    await rename(from, to);
    undo.push(() => rename(to, from));
  };
  const kept: RestoreResult = {};
  try {
    if (existsSync(dbFile)) {
      kept.database = `${dbFile}.before-restore-${stamp}`;
      await move(dbFile, kept.database);
      for (const suffix of ['-wal', '-shm'])
        if (existsSync(`${dbFile}${suffix}`)) await move(`${dbFile}${suffix}`, `${kept.database}${suffix}`);
    }
    await move(staged.db, dbFile);
    const previous = await visibleEntries(storeRoot);
    if (previous.length > 0) {
      kept.store = join(storeRoot, `.before-restore-${stamp}`);
      const folder = kept.store;
      await mkdir(folder);
      undo.push(() => rmdir(folder));
      for (const name of previous) await move(join(storeRoot, name), join(folder, name));
    }
    for (const name of await visibleEntries(staged.store))
      await move(join(staged.store, name), join(storeRoot, name));
    return kept;
  } catch (err) {
    throw await rolledBack(err as Error, undo);
  }
}

/** Undoes what was done, as far as it can; the error says whether all of it was. */
async function rolledBack(err: Error, undo: Array<() => Promise<void>>): Promise<Error> {
  const failed: string[] = [];
  for (const step of undo.reverse()) await step().catch((e: Error) => failed.push(e.message));
  if (failed.length === 0) return new Error(`restore: ${err.message}; nothing was changed`, { cause: err });
  return new Error(
    `restore: ${err.message}; putting the previous data back failed too (${failed.join('; ')}): look for *.before-restore-* files and folders`,
    { cause: err },
  );
}
