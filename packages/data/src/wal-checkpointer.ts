import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite copies the write-ahead log back into the database file (a checkpoint, with an fsync) inside
 * whichever commit crosses `wal_autocheckpoint` pages. better-sqlite3 is synchronous, so in a service
 * that commit stalls the event loop and every request waiting on it: at 100k books the reader's detail
 * commits took 0.09 ms at p50 and up to 48 ms when they checkpointed. This runs the checkpoints on a
 * worker thread with its own connection instead; the service's connection keeps a high automatic
 * threshold only as a backstop should the worker fall behind.
 *
 * The worker is plain JavaScript evaluated from a string so it runs the same under tsx, vitest and a
 * build, and it is unref'd: it never keeps a process alive.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
let stopped = false;
function checkpoint() {
  if (stopped) return;
  try {
    // PASSIVE never waits for readers or writers: it copies what no open transaction still needs
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    if (r.log > 0) parentPort.postMessage({ type: 'checkpoint', log: r.log, checkpointed: r.checkpointed });
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: String(err && err.message || err) });
  }
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
  type: 'ready' | 'checkpoint' | 'error' | 'stopped';
  /** frames in the log when it ran, and how many of them are now in the database file */
  log?: number;
  checkpointed?: number;
  message?: string;
}

export interface WalCheckpointer {
  /** Stops the worker after its current checkpoint; resolves when its connection is closed. */
  stop(): Promise<void>;
  /** Each message of the worker, for tests and logs. */
  onEvent(listener: (e: CheckpointEvent) => void): void;
}

/** Pages after which the service's own connection still checkpoints (~40 MiB of log at 4 KiB pages). */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;

export function startWalCheckpointer(file: string, intervalMs = 200): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs } });
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
