/**
 * k distinct items drawn uniformly without replacement (partial Fisher-Yates), so "another batch"
 * buttons see every pool member with equal chance instead of the pool's head.
 */
export function sample<T>(items: readonly T[], k: number, random: () => number = Math.random): T[] {
  const copy = items.slice();
  const n = Math.min(k, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

/**
 * k distinct items drawn uniformly from the lists together, leaving out `exclude`, without copying
 * them: a home page draws 3 of ~600 newest books of the reader's liked categories, minus a shelf of a
 * few, and copying and filtering the 600 cost more than the draw. Rejected draws (excluded or already
 * taken) are redrawn; past a few, the eligible items are listed and drawn from instead.
 */
export function sampleFromLists<T>(
  lists: ReadonlyArray<readonly T[]>,
  k: number,
  exclude: ReadonlySet<T>,
  random: () => number = Math.random,
): T[] {
  const total = lists.reduce((n, list) => n + list.length, 0);
  const taken = new Set<T>();
  for (let tries = 0; taken.size < k && tries < 4 * k + 8; tries++) {
    let i = Math.floor(random() * total);
    let at = 0;
    while (at < lists.length && i >= lists[at]!.length) i -= lists[at++]!.length;
    if (at === lists.length) break;
    const item = lists[at]![i]!;
    if (!exclude.has(item)) taken.add(item);
  }
  const picked = [...taken];
  if (picked.length < k) {
    const rest = lists.flat().filter((x) => !exclude.has(x) && !taken.has(x));
    picked.push(...sample(rest, k - picked.length, random));
  }
  return picked;
}
