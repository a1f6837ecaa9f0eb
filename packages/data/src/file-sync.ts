import { closeSync, openSync, statSync } from 'node:fs';

/**
 * A descriptor of a database file that only ever fsyncs it, so the checkpointer can flush the pages its
 * passive passes copied *before* it takes the write lock to restart the log (the restart then syncs
 * the last few milliseconds' pages instead of everything since the last full pass; wal-checkpointer.ts).
 *
 * Closing any descriptor of a file drops every POSIX lock this process holds on it, SQLite's included
 * (https://sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_).
 * So there is one descriptor per file per process, shared by every handle of that file and closed only
 * when the last of them is released, which createDb does after its connections are closed.
 */
export interface FileSync {
  readonly fd: number;
  release(): void;
}

const held = new Map<string, { fd: number; users: number }>();

/** Same file, same descriptor, however the path is spelled (the key is the device and inode). */
export function holdFileSync(file: string): FileSync {
  const { dev, ino } = statSync(file);
  const key = `${dev}:${ino}`;
  let entry = held.get(key);
  if (!entry) {
    entry = { fd: openSync(file, 'r'), users: 0 };
    held.set(key, entry);
  }
  entry.users++;
  const own = entry;
  let released = false;
  return {
    fd: own.fd,
    release() {
      if (released) return;
      released = true;
      if (--own.users > 0) return;
      held.delete(key);
      closeSync(own.fd);
    },
  };
}

/** Descriptors held now (tests). */
export function heldFileSyncs(): number {
  return held.size;
}
