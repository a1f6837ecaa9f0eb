import { describe, expect, it } from 'vitest';
import { growthView, previousOf, windowGrowthView } from './growth';

/** The service's ratio (packages/catalog screen.service `growthRatio`). */
const ratio = (current: number, previous: number) => (current - previous) / Math.max(previous, 1);

describe('user growth as the dashboard shows it', () => {
  it('a percentage when there was something before', () => {
    expect(growthView(ratio(15, 10), 15, 10)).toEqual({ kind: 'percent', text: '+50.0%' });
    expect(growthView(ratio(5, 10), 5, 10)).toEqual({ kind: 'percent', text: '-50.0%' });
    expect(growthView(ratio(10, 10), 10, 10)).toEqual({ kind: 'percent', text: '0.0%' });
  });

  it('"new" from nothing (never "1200.0%"), nothing from nothing', () => {
    expect(growthView(ratio(12, 0), 12, 0)).toEqual({ kind: 'new' });
    expect(growthView(ratio(0, 0), 0, 0)).toEqual({ kind: 'none' });
  });

  it('the window before is recovered from the ratio and the window trend', () => {
    for (const [current, previous] of [
      [12, 0],
      [0, 0],
      [1, 0],
      [2, 1],
      [1, 2],
      [0, 5],
      [30, 7],
      [7, 30],
      [100, 99],
    ] as const)
      expect(previousOf(ratio(current, previous), current), `${current} after ${previous}`).toBe(
        previous === 0 ? 0 : current === 0 ? 1 : previous,
      );
    expect(windowGrowthView(ratio(12, 0), [0, 5, 7])).toEqual({ kind: 'new' });
    expect(windowGrowthView(ratio(12, 4), [0, 5, 7])).toEqual({ kind: 'percent', text: '+200.0%' });
    expect(windowGrowthView(ratio(0, 3), [0, 0])).toEqual({ kind: 'percent', text: '-100.0%' });
    expect(windowGrowthView(0, [0, 0])).toEqual({ kind: 'none' });
  });
});
