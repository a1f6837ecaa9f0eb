import { countValues, type Database, popularValues, TextMatcher, type ValueField } from '@readlib/data';
import type { Kysely } from 'kysely';

/** The most frequent values of one field at one catalogue version. */
export interface PopularSet {
  /** true when these are all the values of the field */
  complete: boolean;
  /** most books first, ties by value: the facets' order */
  values: Array<{ value: string; n: number }>;
  matcher: TextMatcher;
}

export interface PopularValuesOptions {
  /** the values kept of a field with more than `whole` of them: its most frequent */
  max?: number | undefined;
  /** a field with at most this many values is kept whole */
  whole?: number | undefined;
  /** while the catalogue version keeps moving, at most one read per field starts per interval */
  minIntervalMs?: number | undefined;
  now?: () => number;
}

/**
 * The author and publisher values with the most books, searchable in memory (search facets), for the
 * catalogue version the memo holds: every value of a field that has at most `whole` of them, so that
 * no facet of it asks the index (at 100k books the authors number about 10,000), else the `max` most
 * frequent, which answer the common keywords. A read scans every value it keeps, so no search waits for it:
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

  private readonly max: number;
  private readonly whole: number;
  private readonly minIntervalMs: number;
  private readonly now: () => number;

  constructor(
    /** false: values are never read, so callers always ask the index */
    private readonly keep = true,
    options: PopularValuesOptions = {},
  ) {
    this.max = options.max ?? 5_000;
    this.whole = options.whole ?? 20_000;
    this.minIntervalMs = options.minIntervalMs ?? 1_000;
    this.now = options.now ?? (() => performance.now());
  }

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
    const read = readPopular(db, field, this.max, this.whole)
      .then(({ values, complete }) => {
        if (generation !== this.generation) return;
        const matcher = new TextMatcher(values.map((v) => v.value));
        this.ready.set(field, { complete, values, matcher });
      })
      // a failed read leaves the facets to the index, which reports database errors itself
      .catch(() => {})
      .finally(() => this.loading.delete(field));
    this.loading.set(field, read);
  }
}

/**
 * The values of a field with at most `whole` of them, else its `max` most frequent. Complete when the
 * one read returned fewer than it asked for, whatever a write between the count and the read did.
 */
async function readPopular(db: Kysely<Database>, field: ValueField, max: number, whole: number) {
  const limit = whole > max && (await countValues(db, field)) <= whole ? whole : max;
  const values = await popularValues(db, field, limit);
  return { values, complete: values.length < limit };
}
