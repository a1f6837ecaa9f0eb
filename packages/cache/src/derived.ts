import type { Versions } from './versions.js';

/**
 * Values computed from a kept object (its JSON bytes, say), kept exactly as long as that object is: a
 * kept object is never changed (a change makes a new one), so what is derived from it holds while it is
 * handed out, and goes with it. This is how a route keeps the serialised form of what a keep holds
 * without a second invalidation: the source's versions are the derived value's.
 */
export class Derived<N extends string, S extends object, V> {
  private readonly values = new WeakMap<S, V>();

  /**
   * @param name what is derived, for the docs' table of caches
   * @param from the name of the keep whose objects it derives from: its versions are this one's
   */
  constructor(versions: Versions<N>, name: string, from: string) {
    const source = versions.keeps.find((k) => k.name === from);
    if (!source) throw new Error(`${name}: no keep named ${from} to derive from`);
    versions.describe({
      name,
      key: `an object of ${from}`,
      dependsOn: source.dependsOn,
      max: 0,
      unit: `as many as ${from} holds`,
    });
  }

  of(source: S, derive: (source: S) => V): V {
    let value = this.values.get(source);
    if (value === undefined) {
      value = derive(source);
      this.values.set(source, value);
    }
    return value;
  }

  /** The derived value when there is one already. */
  peek(source: S): V | undefined {
    return this.values.get(source);
  }

  set(source: S, value: V): void {
    this.values.set(source, value);
  }
}
