/** A value and its second-chance mark: one lookup serves a read (a Set of marks cost a second hash). */
interface Entry<V> {
  value: V;
  /** read since its place in the queue last came up */
  used: boolean;
  /** its weight against `max` (1 without a weigher) */
  weight: number;
}

/**
 * A Map of at most `max` entries (or, with `weigh`, of entries weighing at most `max` together) that
 * evicts in insertion order with a second chance (CLOCK): an entry read by `get` since its place last
 * came up is queued again instead of evicted, so the keys a busy service keeps reading (hot keywords'
 * search answers, hot books' rows) stay while one-off keys go. O(1) amortised.
 *
 * Keys are queued on insertion and the queue is walked from a head index, not by deleting the Map's
 * first key: V8 leaves a hole for every deleted entry until the table is rebuilt, and `keys().next()`
 * walks the holes from the start each time. A deleted key's place goes stale and is skipped (or, when
 * the key came back, its first place comes up first: a bound on memory first, a recency policy second).
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, Entry<V>>();
  private queue: K[] = [];
  private head = 0;
  private weight = 0;

  /**
   * @param onEvict told of each entry dropped to make room (not of `delete` or `clear`)
   * @param weigh an entry's weight against `max`; a value heavier than `max` alone is not kept
   */
  constructor(
    private readonly max: number,
    private readonly onEvict?: (key: K, value: V) => void,
    private readonly weigh?: (value: V) => number,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** The entries' total weight (their number without a weigher). */
  get totalWeight(): number {
    return this.weight;
  }

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.value;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): this {
    const weight = this.weigh ? this.weigh(value) : 1;
    const entry = this.map.get(key);
    if (entry !== undefined) {
      // updated in place: it keeps its place in the queue
      this.weight += weight - entry.weight;
      entry.value = value;
      entry.weight = weight;
      this.shrink(key);
      return this;
    }
    if (weight > this.max) return this;
    while (this.weight + weight > this.max) if (!this.evictOldest()) break;
    this.queue.push(key);
    // stale places of deleted keys would otherwise pile up while nothing is evicted
    if (this.queue.length - this.head > 2 * this.map.size + 1024) this.rebuildQueue();
    this.map.set(key, { value, used: false, weight });
    this.weight += weight;
    return this;
  }

  delete(key: K): boolean {
    const entry = this.map.get(key);
    if (entry === undefined) return false;
    this.weight -= entry.weight;
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.queue = [];
    this.head = 0;
    this.weight = 0;
  }

  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  /** After an update made `key` heavier: others make room, and `key` goes too if it alone is too heavy. */
  private shrink(key: K): void {
    if (this.weight <= this.max) return;
    const entry = this.map.get(key)!;
    if (entry.weight > this.max) {
      this.delete(key);
      return;
    }
    entry.used = true;
    while (this.weight > this.max) if (!this.evictOldest()) break;
  }

  private evictOldest(): boolean {
    while (this.head < this.queue.length) {
      const key = this.queue[this.head++]!;
      const entry = this.map.get(key);
      if (entry === undefined) continue;
      // each second chance clears a mark, so a full turn of the queue at most finds an entry to evict
      if (entry.used) {
        entry.used = false;
        this.queue.push(key);
        continue;
      }
      this.map.delete(key);
      this.weight -= entry.weight;
      this.onEvict?.(key, entry.value);
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      return true;
    }
    return false;
  }

  private rebuildQueue(): void {
    this.queue = [...this.map.keys()];
    this.head = 0;
  }
}
