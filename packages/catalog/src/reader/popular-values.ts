import { type Database, popularValues, TextMatcher, type ValueField } from '@readlib/data';
import type { Kysely } from 'kysely';

/** The most frequent values of one field at one catalogue version. */
export interface PopularSet {
  /** true when these are all the values of the field */
  complete: boolean;
  /** most books first, ties by value: the facets' order */
  values: Array<{ value: string; n: number }>;
  matcher: TextMatcher;
}

/**
 * The author and publisher values with the most books, searchable in memory (search facets), for the
 * catalogue version the memo holds. A read scans every value of a field, so no search waits for it:
 * until the values of the current version are in, the caller asks the index, and while book writes
 * keep moving the version (an import) at most one read per field starts per `minIntervalMs` (on SQLite
 * a read still occupies the event loop while it runs).
 * Values of an older version are never used.
 */
export class PopularValuesMemo {
  private generation = 0;
  private readonly ready = new Map<ValueField, PopularSet>();
  private readonly loading = new Map<ValueField, Promise<void>>();
  private readonly lastStart = new Map<ValueField, number>();

  constructor(
    /** false: values are never read, so callers always ask the index */
    private readonly keep = true,
    private readonly max = 5_000,
    private readonly minIntervalMs = 1_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The catalogue version moved: what was read no longer holds. */
  reset(): void {
    this.generation++;
    this.ready.clear();
  }

  /** The values of the current version, or undefined while they are not read (a read may start). */
  get(db: Kysely<Database>, field: ValueField): PopularSet | undefined {
    const hit = this.ready.get(field);
    if (!hit) this.start(db, field);
    return hit;
  }

  /** Resolves when the reads under way have ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.loading.values()]);
  }

  private start(db: Kysely<Database>, field: ValueField): void {
    if (!this.keep) return;
    const last = this.lastStart.get(field);
    if (this.loading.has(field) || (last !== undefined && this.now() - last < this.minIntervalMs)) return;
    this.lastStart.set(field, this.now());
    const generation = this.generation;
    const read = popularValues(db, field, this.max)
      .then((values) => {
        if (generation !== this.generation) return;
        const matcher = new TextMatcher(values.map((v) => v.value));
        this.ready.set(field, { complete: values.length < this.max, values, matcher });
      })
      // a failed read leaves the facets to the index, which reports database errors itself
      .catch(() => {})
      .finally(() => this.loading.delete(field));
    this.loading.set(field, read);
  }
}
