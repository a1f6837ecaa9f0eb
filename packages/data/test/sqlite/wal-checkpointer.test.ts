import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/create-db.js';
import { type HeldFile, holdFile } from '../../src/sqlite/held-file.js';
import { type CheckpointEvent, startWalCheckpointer } from '../../src/sqlite/wal-checkpointer.js';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'readlib-wal-'));
  dirs.push(dir);
  return join(dir, 'db.sqlite');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Commits `n` transactions of ten rows each (about 3 KiB of text per row, so the log grows). */
async function writeRows(h: DbHandle, n: number, from = 0): Promise<void> {
  for (let t = 0; t < n; t++) {
    await h.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 10; i++) {
        await sql`insert into t (id, body) values (${from + t * 10 + i}, ${'x'.repeat(3000)})`.execute(trx);
      }
    });
  }
}

/**
 * How many times the log was begun anew since the database was made: SQLite writes this count (the
 * "checkpoint sequence number", big-endian at byte 12) into the log's header whenever a writer starts
 * the log from its beginning, which it does only once a checkpoint has copied all of it.
 */
function logsBegunAnew(file: string): number {
  const header = Buffer.alloc(16);
  const fd = openSync(`${file}-wal`, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(12);
}

/**
 * Commits without a pause on a new file whose only checkpoints are a worker's (restarting past
 * `restartPages`, flushing `syncFd(file)` first when given). `restartedWrites`: once the worker has
 * restarted the log, how many more transactions to commit before stopping. The run lasts 1.5 s at least
 * and, on a loaded machine where the worker rarely finds the write lock free between this writer's
 * transactions, until that many followed a restart (at most 20 s): the tests assert what restarts do,
 * not how soon they succeed (bench:sql measures that).
 */
async function steadyWrites(restartPages: number, restartedWrites = 0, syncFd?: (file: string) => number) {
  const file = tempFile();
  const h = createDb({ dialect: 'sqlite', file });
  await sql`create table t (id integer primary key, body text not null)`.execute(h.db);
  // the service's connection never checkpoints here: only the worker can copy or restart the log
  await sql`pragma wal_autocheckpoint = 0`.execute(h.db);
  const fd = syncFd?.(file);
  const cp = startWalCheckpointer(file, {
    intervalMs: 20,
    restartPages,
    ...(fd !== undefined ? { syncFd: fd } : {}),
  });
  const events: CheckpointEvent[] = [];
  cp.onEvent((e) => events.push(e));
  // writes without a pause, as a busy reader service commits views: the log is never wholly
  // copied at the moment a write begins, which a passive checkpoint alone would need
  const started = Date.now();
  let sinceRestart = -1;
  cp.onEvent((e) => {
    if (e.type === 'restart' && e.busy === false && sinceRestart < 0) sinceRestart = 0;
  });
  for (let n = 0; ; n++) {
    const elapsed = Date.now() - started;
    if (elapsed >= 1_500 && (restartedWrites === 0 || sinceRestart >= restartedWrites)) break;
    if (elapsed >= 20_000) break;
    await writeRows(h, 1, n * 10);
    if (sinceRestart >= 0) sinceRestart++;
    await new Promise((r) => setImmediate(r));
  }
  await cp.stop();
  const logsBegun = logsBegunAnew(file);
  const restarts = events.filter((e) => e.type === 'restart');
  const rows = (await sql<{ n: number }>`select count(*) as n from t`.execute(h.db)).rows[0]!.n;
  await h.destroy();
  const raw = new SQLite(file, { readonly: true });
  expect(raw.prepare('select count(*) as n from t').get()).toEqual({ n: rows });
  expect(raw.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  raw.close();
  return { restarts, logsBegun, errors: events.filter((e) => e.type === 'error') };
}

const pragma = async (h: DbHandle, p: string) => (await sql.raw(`pragma ${p}`).execute(h.db)).rows[0];

describe('background WAL checkpoints (SQLite file)', () => {
  it('a worker thread copies committed log frames into the database while the service keeps writing', async () => {
    const file = tempFile();
    const h = createDb({ dialect: 'sqlite', file }, { checkpoints: 'background' });
    const events: CheckpointEvent[] = [];
    h.checkpointer!.onEvent((e) => events.push(e));
    await sql`create table t (id integer primary key, body text not null)`.execute(h.db);
    // the service's own connection only checkpoints past the backstop, far above SQLite's 1,000 pages
    expect(await pragma(h, 'wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 25_000 });

    await writeRows(h, 40); // ~400 rows of 3 KB: several hundred log frames, below both thresholds
    const done = await new Promise<CheckpointEvent>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no full checkpoint: ${JSON.stringify(events)}`)),
        5_000,
      );
      h.checkpointer!.onEvent((e) => {
        if (e.type === 'checkpoint' && e.log! > 300 && e.checkpointed === e.log) {
          clearTimeout(timer);
          resolve(e);
        }
      });
    });
    expect(done.log).toBeGreaterThan(300);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);

    await writeRows(h, 10, 400); // writes go on after (and during) checkpoints
    await h.destroy();
    expect(events.at(-1)).toEqual({ type: 'stopped' });

    // every committed row is in the file, which is intact
    const raw = new SQLite(file, { readonly: true });
    expect(raw.prepare('select count(*) as n from t').get()).toEqual({ n: 500 });
    expect(raw.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    raw.close();
  });

  it('restarts the log past restartPages under steady writes, so it begins anew (never while the log stays below it)', async () => {
    // Passive passes alone may also let the log begin anew, when one copies all of it in a pause
    // between two writes (more likely on a loaded machine, where this writer is slower), so the run
    // without restarts asserts only that no pass restarted below the threshold.
    const without = await steadyWrites(Number.MAX_SAFE_INTEGER);
    expect(without.restarts).toEqual([]);
    expect(without.errors).toEqual([]);

    const withRestart = await steadyWrites(300, 50);
    const done = withRestart.restarts.filter((e) => e.busy === false);
    expect(done.length).toBeGreaterThan(0);
    expect(withRestart.errors).toEqual([]);
    // the writes that followed a restart began the log anew
    expect(withRestart.logsBegun).toBeGreaterThan(0);
    // no descriptor given: nothing flushed outside the lock
    expect(withRestart.restarts.every((e) => e.syncMs === undefined)).toBe(true);
  });

  it('flushes the database file before each restart, outside the lock, given a descriptor of it', async () => {
    const held: HeldFile[] = [];
    const { restarts, logsBegun, errors } = await steadyWrites(300, 50, (file) => {
      held.push(holdFile(file));
      return held[0]!.fd;
    });
    for (const h of held) h.release();
    expect(errors).toEqual([]);
    const done = restarts.filter((e) => e.busy === false);
    expect(done.length).toBeGreaterThan(0);
    for (const e of restarts) expect(e.syncMs).toBeGreaterThanOrEqual(0);
    expect(logsBegun).toBeGreaterThan(0);
  });

  it('a sync that fails is reported once, and restarts still happen (they sync under the lock themselves)', async () => {
    const { restarts, logsBegun, errors } = await steadyWrites(300, 120, () => 2 ** 31 - 1); // no such descriptor
    // reported once, however many restarts followed (120 transactions of ~10 pages: several thresholds)
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/^sync before restart: .*EBADF/);
    expect(restarts.filter((e) => e.busy === false).length).toBeGreaterThan(1);
    expect(restarts.every((e) => e.syncMs === undefined)).toBe(true);
    expect(logsBegun).toBeGreaterThan(0);
  });

  it('reports a worker that cannot work (here: no such file) and still stops', async () => {
    const cp = startWalCheckpointer(join(tempFile(), 'missing', 'db.sqlite'), { intervalMs: 20 });
    const failed = await new Promise<CheckpointEvent>((resolve) => cp.onEvent(resolve));
    expect(failed.type).toBe('error');
    expect(failed.message).toMatch(/unable to open|directory does not exist|no such/i);
    await cp.stop();
  });

  it('stays inline by default: SQLite checkpoints in the commit at 1,000 pages, no worker', async () => {
    const h = createDb({ dialect: 'sqlite', file: tempFile() });
    expect(h.checkpointer).toBeUndefined();
    expect(await pragma(h, 'wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 1000 });
    await h.destroy();
  });

  it('starts no worker for an in-memory database, which has no log', async () => {
    const h = createDb({ dialect: 'sqlite', file: ':memory:' }, { checkpoints: 'background' });
    expect(h.checkpointer).toBeUndefined();
    await h.destroy();
  });
});
