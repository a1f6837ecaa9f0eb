import { readSync } from 'node:fs';
// bound when this module loads: a test's fake timers must not stop held stamps from being released
import { setImmediate as atNextTurn } from 'node:timers';
import type SQLite from 'better-sqlite3';
import type { CommitListener } from '../postgres/commit-notifications.js';

const probes = new WeakMap<object, () => number | undefined>();

/**
 * Set by createDb for a SQLite file. `connection` must never write: SQLite's `data_version` moves for
 * every commit made by any other connection (this process's writer, the admin service, the CLI, a
 * checkpoint restarting the log) and never for the connection's own.
 *
 * With `shmFd`, a descriptor of the file's wal-index (`<file>-shm`) that stays open as long as
 * `connection`, the probe reads the wal-index header instead (see walIndexProbe), and asks
 * `data_version` only where that header is not one it knows.
 */
export function setCommitProbe(db: object, connection: SQLite.Database, shmFd?: number): void {
  const stmt = connection.prepare('PRAGMA data_version').pluck();
  const dataVersion = () => (connection.open ? (stmt.get() as number) : undefined);
  const header = shmFd === undefined ? undefined : walIndexProbe(shmFd);
  const probe = heldForTheTurn(header ?? dataVersion);
  probes.set(db, () => (connection.open ? probe() : undefined));
  sources.set(db, header ? 'wal-index' : 'data_version');
}

type StampSource = 'wal-index' | 'data_version' | 'notifications';
const sources = new WeakMap<object, StampSource>();

/** PostgreSQL: `db`'s stamps are those of its CommitListener (postgres/commit-notifications.ts). */
export function setNotifiedCommitStamp(db: object, listener: NotifiedStamps): void {
  probes.set(db, () => listener.stamp());
  sources.set(db, 'notifications');
  operatorProbes.set(db, () => listener.operatorsStamp());
}

type NotifiedStamps = Pick<CommitListener, 'stamp' | 'operatorsStamp'>;

const operatorProbes = new WeakMap<object, () => number | undefined>();

/**
 * Like `commitStamp`, for the operators alone: a number that differs from any earlier one once an
 * operator may have changed (a password reset, by any process). Only PostgreSQL listening for commits
 * tells it; elsewhere undefined, and an operator's token version is read at every request (on SQLite
 * a statement within the process).
 */
export function operatorsStamp(db: object): number | undefined {
  return operatorProbes.get(db)?.();
}

/** Where `db`'s stamps come from (tests, diagnostics); undefined where it has none. */
export function commitStampSource(db: object): StampSource | undefined {
  return sources.get(db);
}

/**
 * A number that differs from any earlier one of `db` once anything has been committed to the database
 * since, by any process; undefined where the dialect tells nothing of the kind (PostgreSQL without
 * a commit listener or while it does not listen, an in-memory database, a transaction). Reads made after taking it see at least what it stands for, so a
 * value read after taking stamp `s` is still the database's while `commitStamp(db) === s`, as far as
 * a request can tell: on SQLite a stamp is held for the turn of the event loop (heldForTheTurn). The
 * check must stay far cheaper than the read it saves: one pread a turn, no statement.
 */
export function commitStamp(db: object): number | undefined {
  return probes.get(db)?.();
}

/** Moves when the event loop starts a new turn and when this process commits (commitsMade). */
let turn = 0;
let turnEnding = false;

function nextTurn(): void {
  turnEnding = false;
  turn++;
}

/**
 * A statement that may have written ran on a writer of this process (split-driver.ts calls it after
 * every one): the stamps held for this turn are read again, so a request that follows its own write,
 * or another service's of this process, sees the commit at once.
 */
export function commitsMade(): void {
  turn++;
}

/**
 * One probe read per turn of the event loop (its poll phase, released at the check phase that follows)
 * instead of one per request: the requests of a turn are those whose bytes were waiting when the turn
 * began, so none was sent after a commit the held read missed unless the turn itself outlasted it.
 * Another process's commit is thus seen from the next turn (a fraction of a millisecond under load,
 * where PostgreSQL's notifications take milliseconds); this process's own, at once (commitsMade).
 */
function heldForTheTurn(probe: () => number | undefined): () => number | undefined {
  let held: number | undefined;
  let heldIn = -1;
  return () => {
    if (heldIn === turn) return held;
    held = probe();
    heldIn = turn;
    if (!turnEnding) {
      turnEnding = true;
      atNextTurn(nextTurn);
    }
    return held;
  };
}

/** The wal-index layout these reads rely on: its header's version field (sqlite.org/walformat.html). */
const WAL_INDEX_VERSION = 3007000;
const HEADER_WORDS = 12;

/**
 * `data_version` is a statement: SQLite takes and drops a read lock for it (two fcntl calls and an
 * fstat) on every request that keeps answers. A
 * commit, by any connection of any process, rewrites the wal-index header (its frame count grows; a
 * log restart changes its salts), so reading the header's 48 bytes tells the same in one pread.
 * SQLite writes the header twice, the second copy first, and its own readers trust a read only when
 * both copies agree; so does this one. The stamp is a counter of this process that moves whenever the
 * header differs from the one seen last; a read that is torn or fails moves it too, which only costs
 * a kept answer. Undefined (use `data_version`) when the file does not hold a header of the known
 * version: another layout, or no wal-index.
 */
function walIndexProbe(fd: number): (() => number) | undefined {
  const bytes = Buffer.alloc(HEADER_WORDS * 8);
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS * 2);
  const seen = new Int32Array(HEADER_WORDS);
  const read = () => {
    try {
      return readSync(fd, bytes, 0, bytes.length, 0) === bytes.length && bytes[12] === 1; // isInit
    } catch {
      return false;
    }
  };
  if (!read() || words[0] !== WAL_INDEX_VERSION) return undefined;
  let stamp = 0;
  return () => {
    let same = read() && words[0] === WAL_INDEX_VERSION;
    for (let i = 0; same && i < HEADER_WORDS; i++)
      same = words[i] === words[i + HEADER_WORDS] && words[i] === seen[i];
    if (same) return stamp;
    seen.set(words.subarray(0, HEADER_WORDS));
    // a torn read leaves `seen` a header that never was, so the next read moves the stamp again
    return ++stamp;
  };
}
