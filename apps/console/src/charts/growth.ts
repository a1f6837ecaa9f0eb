/**
 * How user growth is shown. The service's ratio is (current - previous) / max(previous, 1) (decisions.md
 * §5): from a previous figure of 0 it reads as the current figure times 100 % ("1200.0%" for 12 new
 * users after none), which is no growth rate at all. Such a figure is shown as "new" instead (or "—"
 * when both are 0).
 */
export type GrowthView = { kind: 'percent'; text: string } | { kind: 'new' } | { kind: 'none' };

const percent = (ratio: number) => `${ratio > 0 ? '+' : ''}${(ratio * 100).toFixed(1)}%`;

export function growthView(ratio: number, current: number, previous: number): GrowthView {
  if (previous > 0) return { kind: 'percent', text: percent(ratio) };
  return current > 0 ? { kind: 'new' } : { kind: 'none' };
}

/**
 * The previous figure behind a ratio of the service, given the current one: previous 0 gives ratio =
 * current; previous p ≥ 1 gives ratio = current / p - 1, so p = current / (1 + ratio). The two never
 * meet (current = current / p - 1 has no solution with p ≥ 1), so the payload tells them apart.
 */
export function previousOf(ratio: number, current: number): number {
  if (ratio !== -1) {
    const p = current / (1 + ratio);
    if (Number.isFinite(p) && p >= 1 - 1e-9 && Math.abs(p - Math.round(p)) < 1e-6) return Math.round(p);
  }
  // ratio -1: everything before, nothing now (previous ≥ 1, its exact figure unknown)
  if (ratio === -1) return 1;
  return 0;
}

/**
 * The window's growth: its new users are the sum of the window's per-day trend (the same count the
 * service compares), the window before's are recovered from the ratio.
 */
export function windowGrowthView(ratio: number, trend: readonly number[]): GrowthView {
  const current = trend.reduce((sum, n) => sum + n, 0);
  return growthView(ratio, current, previousOf(ratio, current));
}
