import { closeSync, openSync, statSync } from 'node:fs';

/**
 * A read-only descriptor of one of a database's files, held beside SQLite's own: the checkpointer
 * fsyncs the database file through one, so it can flush the pages its passive passes copied *before*
 * it takes the write lock to restart the log (wal-checkpointer.ts); the commit probe reads the
 * wal-index header of `<file>-shm` through another (commit-probe.ts).
 *
 * Closing any descriptor of a file drops every POSIX lock this process holds on it, SQLite's included
 * (https://sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_).
 * So there is one descriptor per file per process, shared by every handle of that file and closed only
 * when the last of them is released, which createDb does after its connections are closed.
 */
export interface HeldFile {
  readonly fd: number;
  release(): void;
}

const held = new Map<string, { fd: number; users: number }>();

/** Same file, same descriptor, however the path is spelled (the key is the device and inode). */
export function holdFile(file: string): HeldFile {
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
export function heldFiles(): number {
  return held.size;
}
