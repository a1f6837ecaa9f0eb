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
