import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite copies the write-ahead log back into the database file (a checkpoint, with an fsync) inside
 * whichever commit crosses `wal_autocheckpoint` pages. better-sqlite3 is synchronous, so in a service
 * that commit stalls the event loop and every request waiting on it, far longer than a commit that
 * does not checkpoint. This runs the checkpoints on a
 * worker thread with its own connection instead; the service's connection keeps a high automatic
 * threshold only as a backstop should the worker fall behind.
 *
 * The worker is plain JavaScript evaluated from a string so it runs the same under tsx, vitest and a
 * build, and it is unref'd: it never keeps a process alive.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { fsyncSync } = require('node:fs');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
let stopped = false;
function checkpoint() {
  if (stopped) return;
  try {
    // PASSIVE never waits for readers or writers: it copies what no open transaction still needs
    const started = performance.now();
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    const ms = performance.now() - started;
    if (r.log > 0) parentPort.postMessage({ type: 'checkpoint', log: r.log, checkpointed: r.checkpointed, ms });
    if (r.log >= workerData.restartPages) restart();
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: String(err && err.message || err) });
  }
}
// RESTART takes the write lock (writers of the services wait for it with timers, reads go on) to copy
// the few frames committed since the passive passes, so the next commit starts the log from its
// beginning. Without it, under steady writes the log is never wholly copied when a write begins, grows
// to the service's backstop, and that commit checkpoints on the service's thread.
const pause = new Int32Array(new SharedArrayBuffer(4));
function restart() {
  // passes without the lock first: each copies what was committed during the one before, so the
  // restart itself, which holds the write lock, copies only the last few milliseconds
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    db.pragma('wal_checkpoint(PASSIVE)');
    if (performance.now() - started < 10) break;
  }
  // A pass syncs the database file only when nothing was committed while it copied, which under steady
  // writes seldom happens; the restart, which holds the write lock, would then flush every page
  // those passes had copied. Flushing them here, without a lock,
  // and copying once more what came meanwhile leaves the restart its last few pages to sync.
  const syncMs = syncDatabase();
  if (syncMs !== undefined) db.pragma('wal_checkpoint(PASSIVE)');
  // attempts without a busy handler, a millisecond apart and then further (each takes the write lock
  // for a moment): SQLite's handler would sleep, up to a tenth of a second a time, while holding the write lock waiting
  // for readers to leave the log; an attempt that meets a reader lets go of the lock at once instead
  const deadline = performance.now() + workerData.restartWaitMs;
  for (let attempts = 1, wait = 1; ; attempts++, wait = Math.min(wait * 2, 16)) {
    const started = performance.now();
    const [r] = db.pragma('wal_checkpoint(RESTART)');
    const ms = performance.now() - started;
    if (r.busy === 0 || performance.now() >= deadline) {
      parentPort.postMessage({ type: 'restart', log: r.log, checkpointed: r.checkpointed, busy: r.busy === 1, ms, attempts, syncMs });
      return;
    }
    Atomics.wait(pause, 0, 0, wait);
  }
}
// a failed sync is reported once and not tried again (a platform that refuses fsync on a read-only
// descriptor would fail every time); restarts go on and sync under the lock, as SQLite always does
let syncFailed = false;
function syncDatabase() {
  if (workerData.syncFd === undefined || syncFailed) return undefined;
  const started = performance.now();
  try {
    fsyncSync(workerData.syncFd);
  } catch (err) {
    syncFailed = true;
    parentPort.postMessage({ type: 'error', message: 'sync before restart: ' + String(err && err.message || err) });
    return undefined;
  }
  return performance.now() - started;
}
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  stopped = true;
  clearInterval(timer);
  db.close();
  parentPort.postMessage({ type: 'stopped' });
  parentPort.close();
});
parentPort.postMessage({ type: 'ready' });
`;

export interface CheckpointEvent {
  type: 'ready' | 'checkpoint' | 'restart' | 'error' | 'stopped';
  /** frames in the log when it ran, and how many of them are now in the database file */
  log?: number;
  checkpointed?: number;
  /** restart: the write lock or a reader kept it from finishing; the next pass tries again */
  busy?: boolean;
  /** how long the pass took (a restart: its last attempt, which holds the write lock for most of it) */
  ms?: number;
  /** restart: attempts it took (each meets the lock or a reader and lets go, or restarts the log) */
  attempts?: number;
  /** restart: how long flushing the database file took before it (given `syncFd`; no lock held) */
  syncMs?: number;
  message?: string;
}

export interface WalCheckpointer {
  /** Stops the worker after its current checkpoint; resolves when its connection is closed. */
  stop(): Promise<void>;
  /** Each message of the worker, for tests and logs. */
  onEvent(listener: (e: CheckpointEvent) => void): void;
}

/**
 * Pages after which the service's own connection still checkpoints (~100 MiB of log at 4 KiB pages),
 * on its event loop, should the worker stop or fall behind. Well above RESTART_PAGES: a restart begins
 * on the first pass past that and takes its passes and a flush first, and under steady writes the log
 * keeps growing meanwhile: the backstop must not be reached during a restart, or a request's commit
 * checkpoints on the event loop.
 */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 25_000;

/** Frames in the log past which the worker restarts it (~16 MiB at 4 KiB pages): below the backstop. */
export const RESTART_PAGES = 4_000;

export interface WalCheckpointerOptions {
  /** between passive checkpoints (default 200) */
  intervalMs?: number;
  /** log frames past which a checkpoint also restarts the log (default RESTART_PAGES) */
  restartPages?: number;
  /** longest the worker keeps trying to restart the log (default 1 s; then the next pass tries) */
  restartWaitMs?: number;
  /** a descriptor of the database file (held-file.ts) to flush before each restart, outside the lock */
  syncFd?: number;
}

export function startWalCheckpointer(file: string, opts: WalCheckpointerOptions = {}): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const workerData = {
    file,
    driver,
    intervalMs: opts.intervalMs ?? 200,
    restartPages: opts.restartPages ?? RESTART_PAGES,
    restartWaitMs: opts.restartWaitMs ?? 1_000,
    ...(opts.syncFd !== undefined ? { syncFd: opts.syncFd } : {}),
  };
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
  worker.unref();
  const listeners: Array<(e: CheckpointEvent) => void> = [];
  worker.on('message', (e: CheckpointEvent) => {
    for (const l of listeners) l(e);
  });
  // a worker that cannot open the file only loses background checkpoints: the backstop still runs
  worker.on('error', (err) => {
    for (const l of listeners) l({ type: 'error', message: err.message });
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    onEvent: (l) => listeners.push(l),
    async stop() {
      worker.postMessage('stop');
      // a worker stuck in a long checkpoint is ended rather than waited for without bound
      const timer = setTimeout(() => void worker.terminate(), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
