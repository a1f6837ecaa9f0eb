import { BoundedMap } from '../bounded-map.js';

interface Kept<V> {
  stamp: number;
  value: V;
}

/**
 * Values read from the database, reused while nothing at all has been committed to it since they were
 * read (`commitStamp` from @readlib/data, SQLite's wal-index header): any commit by any process, of any
 * table, makes every value read again, so it is exact and pays only where reads outnumber commits.
 * Where the dialect tells nothing (PostgreSQL) every call reads and nothing is kept. Values are shared
 * between callers: they must not be changed.
 */
export class CommitMemo<K, V> {
  private readonly kept: BoundedMap<K, Kept<V>>;

  /** @param keeps whether a value is small enough to keep (default: every value) */
  constructor(
    max: number,
    private readonly keeps: (value: V) => boolean = () => true,
  ) {
    this.kept = new BoundedMap(max);
  }

  /**
   * @param stamp a commitStamp taken in this request before `read` runs and with no write of the
   *   request since (the catalogue sync's): a commit landing after it moves the next one past it
   */
  async read(key: K, stamp: number | undefined, read: () => Promise<V>): Promise<V> {
    if (stamp === undefined) return read();
    const hit = this.kept.get(key);
    if (hit !== undefined && hit.stamp === stamp) return hit.value;
    const value = await read();
    if (this.keeps(value)) this.kept.set(key, { stamp, value });
    else this.kept.delete(key);
    return value;
  }
}
