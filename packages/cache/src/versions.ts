/** What a keep is told when a version it depends on moves. */
export interface VersionListener<N extends string = string> {
  /**
   * `moves`: the count of moves seen, this one included. `keys`: the keys the move is known to concern
   * (the books a catalogue change names); undefined when it may concern anything.
   */
  moved(name: N, moves: number, keys: readonly unknown[] | undefined): void;
}

/** What a keep declares about itself: what the docs' table of caches lists, and a test checks. */
export interface KeepDescription<N extends string = string> {
  name: string;
  /** what an entry is kept under */
  key: string;
  dependsOn: readonly N[];
  /** at most this many entries, or this much weight where `unit` says so */
  max: number;
  unit: string;
}

/**
 * The versions one process has seen. A version is a value that moves whenever what it stands for
 * changes: a counter a write moves in its transaction (the catalogue's), a commit stamp (any commit
 * of any process), the clock's current period. Requests observe them once (their sync), and every
 * keep depending on a version that moved is told, so a kept value never outlives what it was made of.
 *
 * `seen` counts the moves observed so far. A request takes it when it syncs: what it reads afterwards
 * is of that moment or later, so a keep stores a value only when no version it depends on has moved
 * since the reading request's `seen` (a value read across a move would be kept stale).
 */
export class Versions<N extends string> {
  private moves = 0;
  private readonly values = new Map<N, number | undefined>();
  private readonly listeners = new Map<N, VersionListener<N>[]>();
  private readonly described: KeepDescription<N>[] = [];

  constructor(readonly names: readonly N[]) {}

  /** Moves observed so far. */
  get seen(): number {
    return this.moves;
  }

  /** The last value observed of a version (undefined before the first, or where it cannot be read). */
  valueOf(name: N): number | undefined {
    return this.values.get(name);
  }

  /**
   * Records the value a version has now. A value other than the last one is a move, and so is
   * `undefined` (a version that cannot be read, e.g. commit stamps on PostgreSQL: nothing depending on
   * it is ever reused). Returns whether it moved.
   */
  observe(name: N, value: number | undefined, keys?: readonly unknown[]): boolean {
    if (value !== undefined && this.values.get(name) === value) return false;
    this.values.set(name, value);
    this.moves++;
    for (const listener of this.listeners.get(name) ?? []) listener.moved(name, this.moves, keys);
    return true;
  }

  /** Everything depending on any version is made stale, as after a move of each. */
  moveAll(): void {
    for (const name of this.names) this.observe(name, undefined);
    this.values.clear();
  }

  subscribe(names: readonly N[], listener: VersionListener<N>, description: KeepDescription<N>): void {
    for (const name of names) {
      const list = this.listeners.get(name) ?? [];
      list.push(listener);
      this.listeners.set(name, list);
    }
    this.describe(description);
  }

  /** Adds a keep to the table of what this process keeps (`keeps`). */
  describe(description: KeepDescription<N>): void {
    for (const name of description.dependsOn)
      if (!this.names.includes(name)) throw new Error(`${description.name}: unknown version ${name}`);
    this.described.push(description);
  }

  /** Every keep made over these versions: what it keeps, its key, what it depends on, its bound. */
  get keeps(): readonly KeepDescription<N>[] {
    return this.described;
  }
}
