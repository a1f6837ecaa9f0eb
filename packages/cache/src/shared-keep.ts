import { Keep, type KeepSpec } from './keep.js';
import type { SharedStore } from './shared-store.js';
import type { Versions } from './versions.js';

export interface SharedKeepSpec<N extends string, V> extends KeepSpec<N, V> {
  /** how long a value stays in the shared store (its versions, not this, decide when it is stale) */
  ttlMs: number;
}

/**
 * A keep whose values replicas share: each process keeps its own (a Keep), and a value one process
 * computed is read by the others from the store, under a key naming the values of the versions it
 * depends on, so a replica at other versions never reads it. Values must be plain JSON data. The store
 * failing (Redis away) costs a computation, never an answer: `onError` is told.
 */
export class SharedKeep<N extends string, V> {
  private readonly local: Keep<N, string, V>;

  constructor(
    private readonly versions: Versions<N>,
    readonly spec: SharedKeepSpec<N, V>,
    private readonly store: SharedStore | undefined,
    private readonly onError: (err: Error) => void = () => {},
  ) {
    this.local = new Keep(versions, spec);
  }

  /** The kept value of `key`, from this process, the shared store, or `compute()` (then kept in both). */
  read(key: string, seen: number, compute: () => Promise<V>): Promise<V> {
    return this.local.read(key, seen, () => this.shared(key, compute));
  }

  private async shared(key: string, compute: () => Promise<V>): Promise<V> {
    const store = this.store;
    if (!store) return compute();
    // the versions as they are now: what `compute` reads is of them or later
    const at = this.spec.dependsOn.map((d) => this.versions.valueOf(d));
    // a version that cannot be read (undefined) never matches another replica's
    if (at.includes(undefined)) return compute();
    const storeKey = `${this.spec.name}@${at.join('.')}:${key}`;
    try {
      const stored = await store.get(storeKey);
      if (stored !== undefined) return JSON.parse(stored) as V;
    } catch (err) {
      this.onError(err as Error);
    }
    const value = await compute();
    await store
      .set(storeKey, JSON.stringify(value), this.spec.ttlMs)
      .catch((err: Error) => this.onError(err));
    return value;
  }
}
