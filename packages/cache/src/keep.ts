import { BoundedMap } from './bounded-map.js';
import type { Versions } from './versions.js';

export interface KeepSpec<N extends string, V> {
  /** what is kept (the docs' table of caches lists it by this name) */
  name: string;
  /** what an entry is kept under, in words */
  key: string;
  /** the versions a value depends on: it is reused only while none of them has moved since it was read */
  dependsOn: readonly N[];
  /**
   * A version whose moves name the keys they concern (the catalogue's changes name books): such a move
   * forgets those keys only, where any other move makes every entry stale.
   */
  keyedBy?: N;
  /** at most this many entries, or this much total weight with `weigh` */
  max: number;
  /** an entry's weight against `max` (bytes, say); default 1 */
  weigh?: (value: V) => number;
  /** what `max` counts, for the docs (default "entries") */
  unit?: string;
  /** whether a value may be kept at all (default: every value) */
  keeps?: (value: V) => boolean;
}

interface Entry<V> {
  value: V;
  /** `Versions.seen` of the request that read it */
  seen: number;
  /** per-request facts the value was made from (a detail's counts), compared on every lookup */
  tag: string | undefined;
}

/**
 * Values of one kind kept in a process, each under a key, each depending on the versions the keep
 * names. A value is reused while none of those versions has moved since the request that read it
 * synced (`seen`), and while the tag it was stored with is the one asked for; a value read across a
 * move is handed to its caller but not kept. Bounded: the oldest entries make room (second chance).
 *
 * Checking validity costs one comparison: a move sets the keep's `validSince`, and an entry is stale
 * when it was read before that. Stale entries are not removed at the move (a commit stamp moves with
 * every commit); they are replaced when read again or evicted.
 */
export class Keep<N extends string, K, V> {
  private readonly entries: BoundedMap<K, Entry<V>>;
  private readonly pending = new Map<K, { seen: number; value: Promise<V> }>();
  /** entries read before this count of moves are stale */
  private validSince = 0;
  /** values read before this count of moves are not stored (also moved by a keyed move) */
  private storeSince = 0;

  constructor(
    versions: Versions<N>,
    readonly spec: KeepSpec<N, V>,
  ) {
    const weigh = spec.weigh;
    this.entries = new BoundedMap(spec.max, undefined, weigh ? (e: Entry<V>) => weigh(e.value) : undefined);
    versions.subscribe(
      spec.dependsOn,
      {
        moved: (name, moves, keys) => {
          this.storeSince = moves;
          if (keys !== undefined && name === spec.keyedBy) {
            for (const key of keys) this.entries.delete(key as K);
          } else this.validSince = moves;
        },
      },
      {
        name: spec.name,
        key: spec.key,
        dependsOn: spec.dependsOn,
        max: spec.max,
        unit: spec.unit ?? 'entries',
      },
    );
  }

  /** The kept value, when there is one that still holds (and was stored with this tag). */
  get(key: K, tag?: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.seen < this.validSince || entry.tag !== tag) return undefined;
    return entry.value;
  }

  /** Keeps a value read by a request that synced at `seen`, unless a version it depends on moved since. */
  set(key: K, value: V, seen: number, tag?: string): void {
    // read across a move: not kept, and what is kept (read since, or already stale) stays as it is
    if (seen < this.storeSince) return;
    // a value too large to keep replaces the one kept: that one is older
    if (this.spec.keeps && !this.spec.keeps(value)) {
      this.entries.delete(key);
      return;
    }
    this.entries.set(key, { value, seen, tag });
  }

  /**
   * The kept value, or `compute()`'s, kept for the next caller; concurrent callers of a key that read
   * at the same moment share one computation.
   */
  async read(key: K, seen: number, compute: () => Promise<V>, tag?: string): Promise<V> {
    const hit = this.get(key, tag);
    if (hit !== undefined) return hit;
    const running = this.pending.get(key);
    if (running !== undefined && running.seen >= this.storeSince && tag === undefined) return running.value;
    const value = compute();
    const mine = { seen, value };
    if (tag === undefined) this.pending.set(key, mine);
    try {
      const v = await value;
      this.set(key, v, seen, tag);
      return v;
    } finally {
      if (this.pending.get(key) === mine) this.pending.delete(key);
    }
  }

  forget(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.pending.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
